/**
 * Issue 17, sixth pass: the collector's columns are allocated once at their
 * final size where it is known (the next class's size from a worker's
 * export; every slot for q*.abs), held records grow by GROW_FAST, and the
 * values are those of a sequential read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FeatureCollector } from '../src/features/collector.js';
import { withSlotIds } from '../src/read/parallel/contribution.js';
import { buildFeatureSet } from '../src/features/index.js';
import { GROW_FAST, GrowableFloat64, GrowableInt32 } from '../src/memory/growable.js';
import { median } from '../src/stats/median.js';
import { STATE_FEATURE_TYPES } from '../src/features/types.js';
import type { InputFile } from '../src/parse/files.js';

const file = (path: string): InputFile => ({ path, relativePath: path, gzip: false, size: 1 });

/** n named instances of one class in one file: Start, sometimes Auth, a queue state, End. */
function readNamed(c: FeatureCollector, className: 'good' | 'bad', n: number, slow: number): void {
  c.beginFile(file(`${className}.dlog`), className);
  for (let i = 0; i < n; i++) {
    const t = i * 10;
    c.instance(`req-${String(i).padStart(6, '0')}`);
    c.event(t, 'Start');
    if (i % 3 === 0) c.event(t + 0.5, 'Auth');
    c.state(t + 0.25, 'queue', (i * 7) % 11);
    c.state(t + 0.75, 'queue', (i * 5) % 13);
    c.event(t + 1 + (i % 5) * slow, 'End');
  }
  c.endFile(file(`${className}.dlog`));
}

/** A class of named instances, one record each, in the order given. */
/** Each id one instance with one event at its place in the class (`from`: the place of the first, for a part). */
function readIds(c: FeatureCollector, className: 'good' | 'bad', ids: readonly string[], from = 0): void {
  c.beginFile(file(`${className}.dlog`), className);
  ids.forEach((id, i) => {
    c.instance(id);
    c.event(from + i, 'Start');
  });
  c.endFile(file(`${className}.dlog`));
}

const plain = (x: unknown): unknown =>
  JSON.parse(JSON.stringify(x, (_k, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Float64Array, String) : typeof v === 'number' ? String(v) : v)));

describe('column room (issue 17, sixth pass)', () => {
  it('a class finished on absorbing the next one makes room for both at once; q*.abs get room for every slot; values as read in a row', () => {
    const good = 1500;
    const bad = 1200;
    const sequential = new FeatureCollector(true);
    readNamed(sequential, 'good', good, 0.1);
    sequential.finishClass();
    readNamed(sequential, 'bad', bad, 0.4);
    sequential.finishClass();

    // As -j2 reads two whole-class files: this thread the good one, a worker the bad one (exportWholeClass).
    const absorbing = new FeatureCollector(true);
    readNamed(absorbing, 'good', good, 0.1);
    const worker = new FeatureCollector(true);
    readNamed(worker, 'bad', bad, 0.4);
    const parts: ReturnType<FeatureCollector['exportFile']>[] = [];
    parts.push(worker.exportWholeClass((part) => parts.push(part)));
    for (const part of parts) absorbing.absorb(part);
    absorbing.finishClass();

    // Start is set in every slot: its columns were made good + bad long when the good class was finished
    // (growing by doubling on the first bad part would have made them 3000).
    const start = absorbing.events.indexOf('Start');
    // (Its gap, never set, since Start comes first, stays empty; so do its median and last, abs and rel: Start occurs
    // once in each instance, and they read as its first (followers.ts).)
    const set = absorbing.eventColumns[start]!.filter((col) => col.length > 0);
    expect(set).toHaveLength(5);
    expect(absorbing.eventColumns[start]!.filter((col) => col.following)).toHaveLength(4);
    for (const col of set) expect(col.data.length).toBe(good + bad);
    expect(absorbing.durations.data.length).toBe(good + bad);

    for (const c of [sequential, absorbing]) c.fillAbsoluteQuartiles(0.8);
    const queue = absorbing.states.indexOf('queue');
    // q1.abs, half.abs, q3.abs: set only here, for every slot at once (doubling would give 4096).
    for (const q of [4, 5, 6]) expect(absorbing.stateColumns[queue]![q]!.data.length).toBe(good + bad);
    expect(plain(buildFeatureSet(absorbing, { weight: { mode: 'none' } }))).toEqual(plain(buildFeatureSet(sequential, { weight: { mode: 'none' } })));
  });
});

describe('a class summarized by a worker into the shared columns of the collector that absorbs it (issue 17, ninth pass)', () => {
  /**
   * The bad class's only file as a worker reads it: a record before its first
   * I record (the file's own instance), named instances in descending id
   * order for a stretch (so summarized in sorted order), an id named with no
   * records, and a state variable only this class has.
   */
  function readBad(c: FeatureCollector, n: number): void {
    c.beginFile(file('bad.dlog'), 'bad');
    c.event(1, 'Boot');
    c.event(2, 'Start');
    for (let i = 0; i < n; i++) {
      const k = i < 100 ? 99 - i : i;
      const t = i * 10;
      c.instance(`req-${String(k).padStart(6, '0')}`);
      c.event(t, 'Start');
      if (i % 4 === 1) c.state(t + 0.2, 'retries', i % 3);
      c.state(t + 0.25, 'queue', (i * 7) % 11);
      // A zero then a negative zero: one change point (=== cannot tell them apart), the first; q*.abs must be it.
      c.state(t + 0.3, 'zero', 0);
      c.state(t + 0.35, 'zero', -0);
      c.event(t + 1 + (i % 5) * 0.4, 'End');
      if (i === 7) c.instance('req-empty'); // named, no records: no slot
    }
    c.endFile(file('bad.dlog'));
  }

  /** Both classes read one after another (`sequential`), and the good one alone (`main`, the bad one to come from a worker). */
  function goodThenBad(good: number, bad: number): { sequential: FeatureCollector; main: FeatureCollector } {
    const sequential = new FeatureCollector(true);
    readNamed(sequential, 'good', good, 0.1);
    sequential.finishClass();
    readBad(sequential, bad);
    sequential.finishClass();
    const main = new FeatureCollector(true);
    readNamed(main, 'good', good, 0.1);
    return { sequential, main };
  }

  it('in parts while the absorbing collector finishes its own class, Dref known ahead: the features of a sequential read, in shared storage', () => {
    const good = 300;
    // Above one part (FLUSH_SLOTS: 65 536 instances with this few columns) so that the worker's views move on once.
    const bad = 70_000;
    const { sequential, main } = goodThenBad(good, bad);
    // As readParallel does while it waits for the worker: the class's records grouped ahead of finishClass.
    main.prepareClass();
    expect(main.pendingSlots()).toBe(good);
    const worker = new FeatureCollector(true);
    readBad(worker, bad);
    expect(worker.pendingSlots()).toBe(bad + 1); // the file's own instance, not req-empty
    const shared = main.shareColumns(worker.pendingSlots(), worker.events.names, worker.states.names);
    expect(shared).toMatchObject({ base: good, slots: bad + 1 });
    // Every column a view of one SharedArrayBuffer (one mapping, in huge pages but at its two ends), each with room for every slot.
    const views = [...shared.events, ...shared.states].flat();
    expect(views).toHaveLength(shared.events.length * 10 + shared.states.length * 10);
    expect(views.length).toBeGreaterThan(20);
    expect(new Set(views.map((v) => v.buffer)).size).toBe(1);
    expect(views[0]!.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(new Set(views.map((v) => v.length))).toEqual(new Set([good + bad + 1]));
    expect(new Set(views.map((v) => v.byteOffset)).size).toBe(views.length);
    // Room for the worker's slots in every per-slot array now: its parts are appended, this class's half not copied.
    for (const g of [main.durations, main.starts, main.recordCounts, main.entryEvents, main.named]) expect(g.data.length).toBeGreaterThanOrEqual(good + bad + 1);
    // Boot is the worker's alone: numbered in the main collector after its own variables, as absorb would.
    expect(main.events.names).toEqual(['Start', 'Auth', 'End', 'Boot']);
    worker.useSharedColumns(shared);
    // The durations its slots will have, before summarizing, and this class's (ColumnsOffer.reference): Dref.
    const announced = worker.pendingDurations();
    const own = main.pendingDurations();
    const referenceDuration = median(Float64Array.from([...own, ...announced]));
    main.useReferenceDuration(referenceDuration);
    // The worker reads Dref when it hands on its first part: that part's q*.abs from its points, the next one's as summarized.
    let asked = 0;
    worker.useReferenceDurationLater(() => {
      asked++;
      return referenceDuration;
    });
    const parts: ReturnType<FeatureCollector['exportFile']>[] = [];
    parts.push(worker.exportSharedClass(shared, (part) => parts.push(part)));
    expect(asked).toBe(1);
    expect(parts.map((p) => p.ids.length)).toEqual([65_536, bad + 1 - 65_536]);
    expect(Array.from(announced)).toEqual(parts.flatMap((p) => Array.from(p.durations)));
    for (const part of parts) expect([part.eventValues.length, part.stateValues.length, part.sharedLengths !== undefined, part.seriesVar.length]).toEqual([0, 0, true, 0]);
    main.finishClass();
    for (const part of parts) main.absorb(part);
    main.finishClass();

    // buildFeatureSet computes Dref again, fills what still has points (nothing here), and checks the one used ahead.
    expect(main.referenceDurationUsed).toBe(referenceDuration);
    const built = buildFeatureSet(main, { weight: { mode: 'none' } });
    const want = buildFeatureSet(sequential, { weight: { mode: 'none' } });
    // Column by column (a JSON of 70 000 instances' columns takes seconds): every value the same, NaN where NaN.
    const { tables, ...rest } = built.features;
    const { tables: wantTables, ...wantRest } = want.features;
    expect(plain({ ...built, features: rest })).toEqual(plain({ ...want, features: wantRest }));
    expect(tables.map((t) => [t.kind, t.feature, t.variables])).toEqual(wantTables.map((t) => [t.kind, t.feature, t.variables]));
    const differing = tables.flatMap((t, i) => t.columns.flatMap((col, v) => {
      const other = wantTables[i]!.columns[v]!;
      for (let r = 0; r < Math.max(col.length, other.length); r++) if (!Object.is(col[r], other[r])) return [`${t.feature} of ${t.variables[v]}, row ${r}`];
      return [];
    }));
    expect(differing).toEqual([]);
    expect(built.features.tables[0]!.columns[0]!.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(main.sharedIds).toEqual(sequential.sharedIds);
  });

  it('summarized in steps into columns shared ahead (reserveShared), shared mid-way without a copy: the features of a sequential read', () => {
    const good = 3000;
    const bad = 2000;
    const { sequential, main } = goodThenBad(good, bad);
    main.prepareClass();
    // As readParallel does when it left the next class to the worker: room for it estimated, the class summarized in steps.
    main.reserveShared(good + 4000);
    const storage = main.eventColumns.flat().map((c) => c.data.buffer);
    expect(storage.every((b) => b instanceof SharedArrayBuffer)).toBe(true);
    expect(main.summarizeSome(1000)).toBe(false);
    expect(main.summarizeSome(1000)).toBe(false);
    // 2 000 of 3 000 summarized: the slots left are counted, the room is shared as it is (the same buffers, not copies).
    expect([main.instanceCount, main.pendingSlots()]).toEqual([2000, good]);
    const worker = new FeatureCollector(true);
    readBad(worker, bad);
    const shared = main.shareColumns(worker.pendingSlots(), worker.events.names, worker.states.names);
    expect(shared.base).toBe(good);
    expect(main.eventColumns.flat().slice(0, storage.length).map((c) => c.data.buffer)).toEqual(storage);
    expect(main.eventColumns.flat().slice(0, storage.length).every((c, i) => c.data.buffer === storage[i])).toBe(true);
    worker.useSharedColumns(shared);
    const parts: ReturnType<FeatureCollector['exportFile']>[] = [];
    parts.push(worker.exportSharedClass(shared, (part) => parts.push(part)));
    expect(main.summarizeSome(1000)).toBe(true);
    main.finishClass();
    for (const part of parts) main.absorb(part);
    main.finishClass();
    for (const c of [main, sequential]) c.fillAbsoluteQuartiles(5);
    expect(plain(buildFeatureSet(main, { weight: { mode: 'none' } }))).toEqual(plain(buildFeatureSet(sequential, { weight: { mode: 'none' } })));
    expect(main.sharedIds).toEqual(sequential.sharedIds);
  });

  it("absorbSegments: batches of a rotated log summarized from their own records, as absorbing them would; else false, nothing changed", () => {
    /** Batch `b` of `batches`: named instances [b × per, (b + 1) × per), one without records, the last batch naming none. */
    const readPart = (c: FeatureCollector, b: number, per: number, names: string[], states: string[]): void => {
      c.beginFile(file(`part-${b}.dlog`), 'bad');
      for (let i = b * per; i < (b + 1) * per; i++) {
        const t = i * 10;
        c.instance(`req-${String(i).padStart(6, '0')}`, i % 7 === 0 ? 'slow' : null);
        if (i === 5) continue;
        for (const name of names) c.event(t + names.indexOf(name) * 0.1, name);
        for (const state of states) c.state(t + 0.25 + states.indexOf(state) * 0.05, state, (i * 7 + state.length) % 11);
        c.event(t + 1 + (i % 5) * 0.3, 'End');
      }
      c.endFile(file(`part-${b}.dlog`));
    };
    const batch = (b: number, per: number, names: string[], states: string[]): ReturnType<FeatureCollector['exportFile']> => {
      const c = new FeatureCollector(true);
      readPart(c, b, per, names, states);
      return c.exportFile();
    };
    // Later batches meet their variables (events and states) in another order, and one has a variable of its own
    // (codes renumbered).
    const shapes: [string[], string[]][] = [[['Start', 'Auth'], ['queue', 'backlog']], [['Auth', 'Start'], ['backlog', 'queue']], [['Start', 'Retry'], ['queue']]];
    const parts = () => [...shapes.map(([names, states], b) => batch(b, 40, names, states)), batch(3, 0, [], [])];
    const absorbing = new FeatureCollector(true);
    readNamed(absorbing, 'good', 30, 0.1);
    absorbing.finishClass();
    for (const part of parts()) absorbing.absorb(part);
    absorbing.finishClass();
    const segments = new FeatureCollector(true);
    readNamed(segments, 'good', 30, 0.1);
    segments.finishClass();
    const fresh = new FeatureCollector(true);
    expect(fresh.absorbSegments(parts())).toBe(true);
    expect(fresh.pendingSlots()).toBe(119);
    expect(Array.from(fresh.pendingDurations())).toEqual(Array.from(parts().reduce((c, part) => (c.absorb(part), c), new FeatureCollector(true)).pendingDurations()));
    const handed: ReturnType<FeatureCollector['exportFile']>[] = [];
    handed.push(fresh.exportWholeClass((part) => handed.push(part)));
    for (const part of handed) segments.absorb(part);
    segments.finishClass();
    // The same files read in a row.
    const sequential = new FeatureCollector(true);
    readNamed(sequential, 'good', 30, 0.1);
    sequential.finishClass();
    [...shapes, [[], []] as [string[], string[]]].forEach(([names, states], b) => readPart(sequential, b, b < shapes.length ? 40 : 0, names, states));
    sequential.finishClass();
    for (const c of [absorbing, segments, sequential]) c.fillAbsoluteQuartiles(3);
    // (Each built once: buildFeatureSet takes the collector's columns.)
    const want = plain(buildFeatureSet(sequential, { weight: { mode: 'none' } }));
    expect(plain(buildFeatureSet(segments, { weight: { mode: 'none' } }))).toEqual(want);
    expect(plain(buildFeatureSet(absorbing, { weight: { mode: 'none' } }))).toEqual(want);
    // A batch's kinds end at the last one given (req-000035 of [0, 40)): no null for each id after it.
    expect(parts().map((p) => [p.heldIds.length, p.heldKinds.length])).toEqual([[40, 36], [40, 38], [40, 40], [0, 0]]);
    expect(parts()[0]!.heldKinds.slice(0, 8)).toEqual(['slow', null, null, null, null, null, null, 'slow']);
    const plainIds = new FeatureCollector(true);
    readIds(plainIds, 'bad', ['a', 'b', 'c']);
    expect(plainIds.exportFile().heldKinds).toEqual([]);
    // Ids that do not ascend from batch to batch, a batch with a file's own instance, a collector not fresh: false.
    const [first, second] = parts();
    expect(new FeatureCollector(true).absorbSegments([second!, first!])).toBe(false);
    const own = new FeatureCollector(true);
    readBad(own, 3);
    expect(new FeatureCollector(true).absorbSegments([own.exportFile()])).toBe(false);
    const used = new FeatureCollector(true);
    used.absorb(parts()[0]!);
    expect(used.absorbSegments([parts()[1]!])).toBe(false);
    expect(used.pendingSlots()).toBe(39);
  });

  it('ids named again out of order are merged with their first naming (dedupeHeld): as if each had come once, its records together', () => {
    // Request r's records, in time; `kind` on its I record.
    const records = (c: FeatureCollector, r: number, part: number, kind: string | null): void => {
      c.instance(`req-${String((r * 7919) % 1000).padStart(4, '0')}`, kind);
      const t = r * 10 + part * 3;
      c.event(t, part === 0 ? 'Start' : 'Step');
      c.state(t + 0.5, 'queue', (r + part) % 5);
      c.event(t + 1 + (r % 3), part === 2 ? 'End' : 'Wait');
    };
    const n = 600;
    // Interleaved: each request named three times, in three rounds (the last round giving some a kind), ids hashed.
    const interleaved = new FeatureCollector(true);
    interleaved.beginFile(file('bad.dlog'), 'bad');
    for (let part = 0; part < 3; part++) for (let r = 0; r < n; r++) records(interleaved, r, part, part === 2 && r % 4 === 0 ? 'slow' : part === 1 && r % 8 === 0 ? 'fast' : null);
    interleaved.instance('req-none'); // named, no records
    interleaved.endFile(file('bad.dlog'));
    // The same records, each request's together: named once, the kind its first one.
    const together = new FeatureCollector(true);
    together.beginFile(file('bad.dlog'), 'bad');
    for (let r = 0; r < n; r++) {
      for (let part = 0; part < 3; part++) records(together, r, part, part === 0 ? (r % 8 === 0 ? 'fast' : r % 4 === 0 ? 'slow' : null) : null);
    }
    together.instance('req-none');
    together.endFile(file('bad.dlog'));
    const good = (c: FeatureCollector) => {
      c.finishClass();
      // good, after: names some of bad's ids, for the shared ids (in bad's order of first naming).
      c.beginFile(file('good.dlog'), 'good');
      for (const r of [5, 3, 599, 17]) records(c, r, 0, null);
      c.instance('req-none');
      c.endFile(file('good.dlog'));
      c.finishClass();
    };
    good(interleaved);
    good(together);
    // In the order the class finished second (good, here) named them, found by a merge of both classes' ids in
    // sorted order (neither ascends as named).
    const id = (r: number): string => `req-${String((r * 7919) % 1000).padStart(4, '0')}`;
    expect(interleaved.sharedIds).toEqual([id(5), id(3), id(599), id(17), 'req-none']);
    expect(together.sharedIds).toEqual(interleaved.sharedIds);
    for (const c of [interleaved, together]) c.fillAbsoluteQuartiles(5);
    const built = (c: FeatureCollector) => plain(buildFeatureSet(c, { weight: { mode: 'none' } }));
    expect(built(interleaved)).toEqual(built(together));
    expect(interleaved.kinds.toArray().filter((k) => k !== null)).toHaveLength(together.kinds.toArray().filter((k) => k !== null).length);
  });

  it('held records copied into the ids\' order are freed at once (freeNow); records already in that order are used as they are', () => {
    const heldBuffer = (c: FeatureCollector): ArrayBuffer => (c as unknown as { held: { t: GrowableFloat64 } }).held.t.data.buffer as ArrayBuffer;
    const hashed = new FeatureCollector(true);
    readIds(hashed, 'bad', Array.from({ length: 300 }, (_, i) => `req-${String((i * 7919) % 1000).padStart(4, '0')}`));
    const copied = heldBuffer(hashed);
    expect(copied.byteLength).toBeGreaterThan(0);
    hashed.prepareClass();
    // Detached: its memory given back now, not when a full collection finds it.
    expect(copied.byteLength).toBe(0);
    const ascending = new FeatureCollector(true);
    readIds(ascending, 'bad', Array.from({ length: 300 }, (_, i) => `req-${String(i).padStart(4, '0')}`));
    const used = heldBuffer(ascending);
    ascending.prepareClass();
    expect(used.byteLength).toBeGreaterThan(0);
    // Both summarize as a sequential read does (the copy's records, the held ones in place).
    for (const c of [hashed, ascending]) {
      c.finishClass();
      readNamed(c, 'good', 5, 0);
      c.finishClass();
      c.fillAbsoluteQuartiles(1);
    }
    const starts = (c: FeatureCollector) => buildFeatureSet(c, { weight: { mode: 'none' } }).features.instances.filter((x) => x.className === 'bad').map((x) => [x.id, x.records]);
    expect(starts(hashed)).toEqual(Array.from({ length: 300 }, (_, i) => `req-${String((i * 7919) % 1000).padStart(4, '0')}`).sort().map((id) => [id, 1]));
    expect(starts(ascending)).toHaveLength(300);
  });

  it('ids not in order, sent ahead with their sorted order: the parts leave their slot ids out (idsAhead), withSlotIds puts them back', () => {
    /** Hashed ids (not in order), each with records; `empty`: one more named, with none. */
    const hashed = (n: number) => Array.from({ length: n }, (_, i) => `req-${((i * 40503) % 1048576).toString(16).padStart(5, '0')}`);
    const read = (c: FeatureCollector, className: 'good' | 'bad', ids: readonly string[], empty: boolean): void => {
      c.beginFile(file(`${className}.dlog`), className);
      ids.forEach((id, i) => {
        c.instance(id, i % 9 === 0 ? 'slow' : null);
        c.event(i * 10, 'Start');
        c.state(i * 10 + 0.5, 'queue', (i * 7) % 11);
        c.event(i * 10 + 1 + (i % 4), 'End');
      });
      if (empty) c.instance('req-empty');
      c.endFile(file(`${className}.dlog`));
    };
    const good = hashed(500);
    // Above one part (FLUSH_SLOTS: 65 536 instances with this few columns), 220 of good's ids named again.
    const bad = [...hashed(70_000).slice(300), ...good.slice(0, 20)];
    for (const empty of [false, true]) {
      const sequential = new FeatureCollector(true);
      read(sequential, 'good', good, false);
      sequential.finishClass();
      read(sequential, 'bad', bad, empty);
      sequential.finishClass();
      // As readParallel with a worker reading the bad class whole: its named ids and their order cross first.
      const main = new FeatureCollector(true);
      read(main, 'good', good, false);
      const worker = new FeatureCollector(true);
      read(worker, 'bad', bad, empty);
      const named = worker.namedIdsAhead() as string[];
      const sorted = worker.namedOrderAhead() as Int32Array;
      expect([named.length, sorted.length]).toEqual([bad.length + (empty ? 1 : 0), bad.length + (empty ? 1 : 0)]);
      const parts: ReturnType<FeatureCollector['exportFile']>[] = [];
      parts.push(worker.exportWholeClass((part) => parts.push(part)));
      // An id named without records takes no slot: the slots are not the named ids, and their ids cross.
      expect(parts.map((p) => [p.ids.length, p.durations.length, p.idsAhead === true])).toEqual(
        empty ? [[65_536, 65_536, false], [bad.length - 65_536, bad.length - 65_536, false]] : [[0, 65_536, true], [0, bad.length - 65_536, true]]);
      main.finishClass();
      let taken = 0;
      parts.forEach((part, i) => {
        const whole = part.idsAhead === true ? withSlotIds(part, named, sorted, taken) : part;
        taken += whole.ids.length;
        main.absorb(whole);
        if (i === 0) main.absorbNamed(named, sorted);
      });
      main.finishClass();
      expect(main.ids).toEqual(sequential.ids);
      expect(main.sharedIds).toEqual(sequential.sharedIds);
      expect(main.sharedIds).toHaveLength(220);
      for (const c of [main, sequential]) c.fillAbsoluteQuartiles(5);
      const built = (c: FeatureCollector) => plain({ ...buildFeatureSet(c, { weight: { mode: 'none' } }), features: null });
      expect(built(main)).toEqual(built(sequential));
    }
    // More slots than the ids named ahead: an internal error, not ids made up.
    const worker = new FeatureCollector(true);
    read(worker, 'bad', bad, false);
    const named = worker.namedIdsAhead() as string[];
    const sorted = worker.namedOrderAhead() as Int32Array;
    const parts: ReturnType<FeatureCollector['exportFile']>[] = [];
    parts.push(worker.exportWholeClass((part) => parts.push(part)));
    expect(() => withSlotIds(parts[1]!, named, sorted, 65_600)).toThrow(`a part's ${bad.length - 65_536} slots go past the ${bad.length} ids named ahead (from 65600)`);
  });

  it('a Dref used ahead that is not the median of the durations is an internal error, never a silent difference', () => {
    const c = new FeatureCollector(true);
    readNamed(c, 'good', 40, 0.1);
    c.prepareClass();
    const referenceDuration = median(c.pendingDurations());
    c.useReferenceDuration(referenceDuration * 2);
    c.finishClass();
    readNamed(c, 'bad', 40, 0.1);
    c.finishClass();
    expect(() => buildFeatureSet(c, { weight: { mode: 'none' } })).toThrow(`Dref ${referenceDuration * 2} was used ahead, but the instances' median duration is ${referenceDuration}`);
  });

  it('prepareClass: a record after it is an error, not lost', () => {
    const c = new FeatureCollector(true);
    readNamed(c, 'good', 5, 0.1);
    c.prepareClass();
    c.instance('req-late');
    c.event(1, 'Start');
    expect(() => c.finishClass()).toThrow('records came after prepareClass');
  });

  it('a part out of its place is refused, never copied to the wrong slots', () => {
    const main = new FeatureCollector(true);
    readNamed(main, 'good', 20, 0.1);
    const worker = new FeatureCollector(true);
    readBad(worker, 30);
    const shared = main.shareColumns(worker.pendingSlots(), worker.events.names, worker.states.names);
    worker.useSharedColumns(shared);
    const part = worker.exportSharedClass(shared, () => undefined);
    // The main collector's own class is not finished: its slots are not there yet.
    expect(() => main.absorb({ ...part, className: 'good' })).toThrow('a contribution summarized into shared columns at slot 20 came at slot 0');
  });
});

describe('ids named in both classes, found as the parts of a class summarized elsewhere come in', () => {
  it.each([
    // Merged as they come: matches found by equality and after skipping the other class's smaller ids.
    ['ascending', ['b', 'c', 'd'], ['e', 'f', 'h', 'z'], ['a', 'c', 'e', 'g', 'h']],
    // The second part goes back below the first: scanned again at the end (through a Set), in the parts' order.
    ['not ascending across the parts', ['e', 'f', 'h'], ['a', 'c', 'z'], ['a', 'c', 'e', 'g', 'h']],
    // Past the other class's last id (the merge has nothing left), then not ascending: the ids looked up after all.
    ['past the other class\'s last id, then not ascending', ['zz'], ['a', 'c', 'h'], ['a', 'c', 'e', 'g', 'h']],
    // The good class's ids out of order: the index they were read with is their Set.
    ['the other class read out of order', ['b', 'c', 'd'], ['e', 'f', 'h', 'z'], ['h', 'a', 'e', 'c', 'g']],
  ] as const)('%s: the shared ids of a sequential read, in its order', (_name, first, second, goodIds) => {
    const sequential = new FeatureCollector(true);
    readIds(sequential, 'good', goodIds);
    sequential.finishClass();
    readIds(sequential, 'bad', [...first, ...second]);
    sequential.finishClass();

    // The bad class in two parts (two workers' exports of it, in order), absorbed after the good class.
    const absorbing = new FeatureCollector(true);
    readIds(absorbing, 'good', goodIds);
    for (const [ids, from] of [[first, 0], [second, first.length]] as const) {
      const worker = new FeatureCollector(true);
      // The same records as the sequential read: each instance starts at its place in the whole class.
      readIds(worker, 'bad', ids, from);
      absorbing.absorb(worker.exportWholeClass(() => undefined));
    }
    absorbing.finishClass();
    // The bad class's ids the good class named too, in the bad class's order.
    expect(sequential.sharedIds).toEqual([...first, ...second].filter((id) => (goodIds as readonly string[]).includes(id)));
    expect(sequential.sharedIds.length).toBeGreaterThan(1);
    expect(absorbing.sharedIds).toEqual(sequential.sharedIds);
    expect(plain(buildFeatureSet(absorbing, { weight: { mode: 'none' } }))).toEqual(plain(buildFeatureSet(sequential, { weight: { mode: 'none' } })));
  });
});

describe('ids named in both classes, room made for them ahead', () => {
  it('a class of parts (room for all of their slots made at the first) shares exactly the ids a sequential read does', () => {
    const id = (i: number): string => `req-${String(i).padStart(6, '0')}`;
    // 150 of the good class's 300 ids are the bad class's too; the bad class's file has an instance of its own
    // (records before its first I record): 70 001 slots, 70 000 of them named, in two parts.
    const goodIds = Array.from({ length: 300 }, (_, i) => id(69_850 + i));
    const badIds = Array.from({ length: 70_000 }, (_, i) => id(i));
    const readBad = (c: FeatureCollector): void => {
      c.beginFile(file('bad.dlog'), 'bad');
      c.event(0, 'Boot');
      badIds.forEach((x, i) => {
        c.instance(x);
        c.event(i, 'Start');
      });
      c.endFile(file('bad.dlog'));
    };
    const sequential = new FeatureCollector(true);
    readIds(sequential, 'good', goodIds);
    sequential.finishClass();
    readBad(sequential);
    sequential.finishClass();

    const absorbing = new FeatureCollector(true);
    readIds(absorbing, 'good', goodIds);
    absorbing.finishClass();
    const worker = new FeatureCollector(true);
    readBad(worker);
    const parts: ReturnType<FeatureCollector['exportFile']>[] = [];
    parts.push(worker.exportWholeClass((part) => parts.push(part)));
    expect(parts.map((p) => [p.ids.length, p.slotsAhead, p.namedInSlots])).toEqual([[65_536, 70_001, true], [70_001 - 65_536, 0, true]]);
    for (const part of parts) absorbing.absorb(part);
    absorbing.finishClass();

    expect(sequential.sharedIds).toEqual(badIds.slice(69_850));
    expect(absorbing.sharedIds).toEqual(sequential.sharedIds);
    // The bad class's named ids, as the next class would be scanned against: no room left over in them.
    const named = (c: FeatureCollector): string[] => (c as unknown as { namedByClass: Map<string, { ids: string[] }> }).namedByClass.get('bad')!.ids;
    expect(named(absorbing).length).toBe(70_000);
    expect(named(absorbing)).toEqual(named(sequential));
  });
});

describe('named instances summarized in id order (sortedOrder: radix passes, then whole comparisons)', () => {
  /** Each id's instance: one event, so each takes a slot in the order the collector sorts them in. */
  function slotIds(ids: readonly string[]): string[] {
    const c = new FeatureCollector(true);
    readIds(c, 'bad', ids);
    c.finishClass();
    return [...c.ids];
  }

  it('equals a sort by code units: shared prefixes, ids that are prefixes of others or end in NUL, units above 255, long ties', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
      let x = seed;
      const next = (): number => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
      const families = [
        (i: number) => `req-${(i * 2654435761 >>> 0).toString(16)}`,
        (i: number) => `req-0000${i % 97}`,
        (i: number) => `tenant-é-${i % 13}-Ω${i}`,
        (i: number) => `same-prefix-longer-than-eight-${i % 5}${'\u0000'.repeat(i % 3)}`,
        (i: number) => `😀${i % 7}-${i}`,
        (i: number) => `${String.fromCharCode(0x100 + (i % 300))}${i % 11}`,
      ];
      const ids = new Set<string>();
      while (ids.size < 5000) ids.add((families[Math.floor(next() * families.length)] as (i: number) => string)(Math.floor(next() * 1e6)));
      const shuffled = [...ids];
      for (let i = shuffled.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [shuffled[i], shuffled[j]] = [shuffled[j] as string, shuffled[i] as string];
      }
      expect(slotIds(shuffled)).toEqual([...ids].sort());
    }), { numRuns: 8 });
  });

  it('with every id below 256 after the shared prefix (two code units a digit): random hex ids', () => {
    const ids = Array.from({ length: 6000 }, (_, i) => `${((i * 2654435761) >>> 0).toString(16).padStart(8, '0')}-${i % 7}`);
    expect(slotIds(ids)).toEqual([...ids].sort());
  });
});

describe('held records sized for the whole class (expectClassBytes)', () => {
  /** A class in 4 files of 1 000 bytes, 25 named instances of 2 records each (20 bytes a record), read into `c`; the held buffer's storage after each file. */
  function readFiles(c: FeatureCollector): Float64Array[] {
    const storage: Float64Array[] = [];
    for (let f = 0; f < 4; f++) {
      const part: InputFile = { path: `part-${f}.dlog`, relativePath: `part-${f}.dlog`, gzip: false, size: 1000 };
      c.beginFile(part, 'good');
      for (let i = 0; i < 25; i++) {
        const n = f * 25 + i;
        c.instance(`req-${String(n).padStart(4, '0')}`);
        c.event(n, 'Start');
        c.event(n + 1 + (n % 3), 'End');
      }
      c.endFile(part);
      storage.push((c as unknown as { held: { t: GrowableFloat64 } }).held.t.data);
    }
    return storage;
  }

  it('room for all of its files at the first I record (no copy as later files come), and the same features', () => {
    const hinted = new FeatureCollector(true);
    hinted.expectClassBytes(4000);
    const room = readFiles(hinted);
    // One buffer from the first file on, with room for the class at 16 bytes a record.
    expect(new Set(room).size).toBe(1);
    expect(room[0]!.length).toBeGreaterThanOrEqual(4000 / 16);
    // Its four columns are views of one allocation (one mapping: huge pages but at its two ends), as handed over.
    const held = hinted.exportFile(true, 0, true);
    expect(new Set([held.heldT, held.heldV, held.heldCode, held.heldInst].map((a) => a.buffer)).size).toBe(1);
    expect(held.heldT.buffer.byteLength).toBe(room[0]!.length * 24);
    expect([held.heldT.length, held.heldCode.length, held.heldInst.length]).toEqual([200, 200, 200]);
    // File by file (no hint), each file's room is made as it begins: the buffer is replaced (copied) on the way.
    const plainRead = new FeatureCollector(true);
    expect(new Set(readFiles(plainRead)).size).toBeGreaterThan(1);
    for (const c of [hinted, plainRead]) c.finishClass();
    readNamed(hinted, 'bad', 30, 1);
    readNamed(plainRead, 'bad', 30, 1);
    for (const c of [hinted, plainRead]) {
      c.finishClass();
      c.fillAbsoluteQuartiles(2);
    }
    expect(plain(buildFeatureSet(hinted, { weight: { mode: 'none' } }))).toEqual(plain(buildFeatureSet(plainRead, { weight: { mode: 'none' } })));
  });
});

describe("a worker's exports in shared memory (exportMemory)", () => {
  /** Every typed array of a contribution. */
  const arraysOf = (c: object): ArrayBufferView[] => Object.values(c).filter((x): x is ArrayBufferView => ArrayBuffer.isView(x));

  it('exportFile makes every array it returns in SharedArrayBuffers, handed over or not, with the same values as in ArrayBuffers', () => {
    for (const handOver of [false, true]) {
      const made = (memory?: typeof SharedArrayBuffer) => {
        const c = memory === undefined ? new FeatureCollector(true) : new FeatureCollector(true, memory);
        // A file's own instance (summarized, with change points) and named instances (held records).
        c.beginFile(file('run.dlog'), 'good');
        for (let i = 0; i < 20; i++) {
          c.event(i, 'Tick');
          c.state(i + 0.5, 'queue', i % 4);
        }
        c.endFile(file('run.dlog'));
        readNamed(c, 'good', 12, 1);
        const heldBuffer = (c as unknown as { held: { t: GrowableFloat64 } }).held.t.data.buffer;
        return { exported: c.exportFile(true, 0, handOver), heldBuffer };
      };
      const { exported: shared, heldBuffer } = made(SharedArrayBuffer);
      const own = made().exported;
      // Handed over, the held records are views of the collector's own (shared) buffer, not a copy.
      if (handOver) expect(shared.heldT.buffer).toBe(heldBuffer);
      const sharedArrays = arraysOf(shared);
      expect(sharedArrays.length).toBeGreaterThanOrEqual(15);
      for (const a of sharedArrays) expect(a.buffer).toBeInstanceOf(SharedArrayBuffer);
      for (const a of arraysOf(own)) expect(a.buffer).toBeInstanceOf(ArrayBuffer);
      // Some of each kind hold values (not only empty arrays).
      expect(shared.heldT.length).toBeGreaterThan(0);
      expect(shared.seriesT.length).toBeGreaterThan(0);
      expect(shared.stateValues.length).toBeGreaterThan(0);
      expect(plain(shared)).toEqual(plain(own));
    }
  });

  it('a class exported in parts (exportWholeClass) sends every part in shared memory', () => {
    const c = new FeatureCollector(true, SharedArrayBuffer);
    readNamed(c, 'bad', 30, 2);
    const parts: object[] = [];
    parts.push(c.exportWholeClass((part) => parts.push(part)));
    for (const part of parts) for (const a of arraysOf(part)) expect(a.buffer).toBeInstanceOf(SharedArrayBuffer);
  });
});

describe('GROW_FAST growth', () => {
  it('grows by the factor and keeps every value', () => {
    const f = new GrowableFloat64(16, 0, GROW_FAST);
    const i = new GrowableInt32(16, GROW_FAST);
    for (let k = 0; k < 1000; k++) {
      f.push(k / 8);
      i.push(k * 3);
    }
    // 16 → 64 → 256 → 1024
    expect(f.data.length).toBe(1024);
    expect(i.data.length).toBe(1024);
    expect(Array.from(f.data.subarray(0, 1000))).toEqual(Array.from({ length: 1000 }, (_, k) => k / 8));
    expect(Array.from(i.data.subarray(0, 1000))).toEqual(Array.from({ length: 1000 }, (_, k) => k * 3));
  });
});

describe('median (typed sort)', () => {
  it('is the comparator sort\'s median, to the sign of a zero', () => {
    // Hand-computed: sorted 1, 2, 3, 4, 10 → 3; with 6 values (2 + 3) / 2.
    expect(median([10, 3, NaN, 1, 4, 2])).toBe(3);
    expect(median([10, 3, 1, 4, 2, 2])).toBe(2.5);
    expect(median([NaN])).toBeNaN();
    // A comparator sort keeps equal values (0 and −0) in input order, so the middle one here is −0;
    // the typed sort would put −0 first and answer +0.
    expect(Object.is(median([0, -0, 1]), -0)).toBe(true);
    expect(Object.is(median([-0, 0, 1]), 0)).toBe(true);
  });

  it('equals the median of a comparator sort (selection, not sorting): ties, infinities, NaN, sorted and reversed runs', () => {
    const bySort = (values: number[]): number => {
      const kept = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
      const n = kept.length;
      if (n === 0) return Number.NaN;
      const m = n >> 1;
      if (n % 2 === 1) return kept[m]!;
      const mean = (kept[m - 1]! + kept[m]!) / 2;
      return Number.isFinite(mean) ? mean : kept[m - 1]! / 2 + kept[m]! / 2;
    };
    const value = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double(), fc.constantFrom(0, -0, Infinity, -Infinity, NaN, 1e308, -1e308));
    fc.assert(fc.property(fc.array(value, { maxLength: 60 }), fc.constantFrom('as is', 'sorted', 'reversed'), (values, shape) => {
      const input = shape === 'as is' ? values : [...values].sort((a, b) => a - b);
      if (shape === 'reversed') input.reverse();
      expect(Object.is(median(input), bySort(input))).toBe(true);
    }), { numRuns: 2000 });
  });
});

describe("a worker's collector per batch (reuseBuffersOf)", () => {
  it('takes over the last one\'s scratch and file buffer: the same features as a collector of its own', () => {
    /** A file's own instance: Start, `n` Steps, a queue state changing, End (k shifts the values). */
    const readFile = (c: FeatureCollector, name: string, n: number, k: number): void => {
      c.beginFile(file(name), 'good');
      c.event(0, 'Start');
      for (let i = 1; i <= n; i++) {
        c.event(i, 'Step');
        c.state(i + 0.5, 'queue', (i * k) % 7);
      }
      c.event(n + 1 + k, 'End');
      c.endFile(file(name));
    };
    // The first batch leaves large buffers behind (5 000 records), some of its buckets (Step, queue) unknown to the next.
    const first = new FeatureCollector(true);
    readFile(first, 'a.dlog', 5000, 3);
    const own = new FeatureCollector(true);
    const reusing = new FeatureCollector(true);
    reusing.reuseBuffersOf(first);
    for (const c of [own, reusing]) {
      readFile(c, 'b.dlog', 40, 5);
      c.beginFile(file('c.dlog'), 'good');
      c.event(3, 'End');
      c.event(1, 'Start');
      c.endFile(file('c.dlog'));
    }
    const features = (c: FeatureCollector): unknown => plain(c.exportFile());
    expect(features(reusing)).toEqual(features(own));
  });

  it('and its change points\' last block, written from its start: the same features', () => {
    const readFile = (c: FeatureCollector, name: string, n: number, k: number): void => {
      c.beginFile(file(name), 'good');
      for (let i = 0; i < n; i++) c.state(i, 'queue', (i * k) % 7);
      c.endFile(file(name));
    };
    const blockOf = (c: FeatureCollector): Float64Array => (c as unknown as { series: { blockT: Float64Array } }).series.blockT;
    // The first batch leaves a block of room for 5 000 points behind.
    const first = new FeatureCollector(true);
    readFile(first, 'a.dlog', 5000, 3);
    first.exportFile();
    const block = blockOf(first);
    expect(block.length).toBeGreaterThanOrEqual(5000);
    const own = new FeatureCollector(true);
    const reusing = new FeatureCollector(true);
    reusing.reuseBuffersOf(first);
    for (const c of [own, reusing]) {
      readFile(c, 'b.dlog', 40, 5);
      readFile(c, 'c.dlog', 3000, 2);
    }
    expect(blockOf(reusing)).toBe(block);
    expect(blockOf(own)).not.toBe(block);
    expect(plain(reusing.exportFile())).toEqual(plain(own.exportFile()));
  });

  it('files of one instance each, as many as foretold (expectFiles): every column grows once, straight to one slot a file; the values are the same', () => {
    const files = 300;
    /** `files` files of one instance each (an event, a state); `empty`: file 3 holds no record. */
    const read = (c: FeatureCollector, empty: boolean): void => {
      for (let i = 0; i < files; i++) {
        const f = file(`run-${String(i).padStart(4, '0')}.dlog`);
        c.beginFile(f, i < files / 2 ? 'good' : 'bad');
        if (!(empty && i === 3)) {
          c.event(0, 'Start');
          c.state(0.5, 'queue', i % 7);
          c.event(1 + (i % 3), 'End');
        }
        c.endFile(f);
      }
      c.finishClass();
    };
    const capacities = (c: FeatureCollector): number[] =>
      [c.durations, c.starts, c.recordCounts, c.entryEvents, c.named, c.eventColumns[0]![0]!, c.stateColumns[0]![0]!].map((g) => g.data.length);
    const foretold = new FeatureCollector(true);
    foretold.expectFiles(files);
    read(foretold, false);
    const doubling = new FeatureCollector(true);
    read(doubling, false);
    expect(capacities(foretold)).toEqual(Array(7).fill(files));
    expect(capacities(doubling)).toEqual(Array(7).fill(512));
    expect(plain(foretold.exportFile())).toEqual(plain(doubling.exportFile()));
    // A file that gave no instance ends the guess (before any column outgrew its first 16 slots): they double as before.
    const broken = new FeatureCollector(true);
    broken.expectFiles(files);
    read(broken, true);
    const unguided = new FeatureCollector(true);
    read(unguided, true);
    expect(capacities(broken)).toEqual(Array(7).fill(512));
    expect(plain(broken.exportFile())).toEqual(plain(unguided.exportFile()));
  });

  it('Dref known ahead: q*.abs from the records, as their change points give them (a 0 after a −0 included), and no block', () => {
    const Q1_ABS = STATE_FEATURE_TYPES.indexOf('q1.abs');
    const readFile = (c: FeatureCollector): void => {
      c.beginFile(file('z.dlog'), 'good');
      // Runs of equal values: (−0, 0, 0) from 0 s, 5 at 3 s, (0, −0) from 4 s; the instance ends at 6 s.
      [-0, 0, 0, 5, 0, -0].forEach((value, t) => c.state(t, 'z', value));
      c.event(6, 'End');
      c.endFile(file('z.dlog'));
    };
    const ahead = new FeatureCollector(true);
    ahead.useReferenceDuration(8);
    readFile(ahead);
    const points = new FeatureCollector(true);
    readFile(points);
    points.fillAbsoluteQuartiles(8);
    // At 2, 4 and 6 s: the run that holds the last record at or before is the change point's, its first value.
    const quartiles = (c: FeatureCollector): number[] => [0, 1, 2].map((q) => c.stateColumns[0]![Q1_ABS + q]!.at(0));
    expect(quartiles(points).map((x) => Object.is(x, -0))).toEqual([true, false, false]);
    expect(quartiles(ahead).map((x) => Object.is(x, -0))).toEqual([true, false, false]);
    expect(quartiles(ahead)).toEqual(quartiles(points));
    // No change point made, so no block for them.
    expect((ahead as unknown as { series: { blockT: Float64Array } }).series.blockT.length).toBe(0);
  });
});
