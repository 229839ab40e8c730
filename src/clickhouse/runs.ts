/**
 * `check` and `history` over a ClickHouse table. A run is a value of the mapping's run column (`--columns
 * run=COLUMN`: a build id, a nightly date); a selection (a time window or an SQL condition, as a class of the
 * main command) takes the runs of the rows it matches. The features are computed on the server as for two
 * classes (sql.ts): one query gives every instance of every run (its duration, for Dref, and which selections
 * its rows matched), then one query every instance's features, grouped by (run, instance) and named
 * `run/instance` as readRuns names a run's instances in files. Everything after is the file path's.
 */
import type { RunSkipped } from '../check/skipped.js';
import { InputError } from '../errors.js';
import { FeatureCollector } from '../features/collector.js';
import { buildFeatureSet, type FeatureOptions, type FeatureResult } from '../features/index.js';
import { compareCodeUnits } from '../parse/files.js';
import type { ClassName } from '../parse/records.js';
import type { ClickHouseSource } from '../read-options.js';
import { median } from '../stats/median.js';
import { runColumn, tableShape } from './mapping.js';
import { addRow, classFilter, namedInstances, onTable } from './reader.js';
import { anyOf, featureQuery, runInstancesQuery, servicesQuery, type ClassFilter } from './sql.js';

/** Runs of one class: those of the rows its selections match (`label` names it in messages: `baseline`, `new run`). */
export interface RunSelection {
  readonly className: ClassName;
  readonly label: string;
  /** Each a time window START/END or an SQL condition on the table's columns. */
  readonly specs: readonly string[];
}

/** A run found in the table: its name (the run column's value), its class, its first time (seconds in the time column's scale). */
export interface TableRun {
  readonly name: string;
  readonly className: ClassName;
  readonly first: number;
}

/** As readRuns (src/read/runs.ts): one FeatureSet over every run, and each instance's run. */
export interface TableRunsRead {
  readonly features: FeatureResult;
  /** runOf[i]: index into `runs` of FeatureSet.instances[i]. */
  readonly runOf: Int32Array;
  /** The runs, by selection (as given) and, within one, in time order (their first record), ties by name. */
  readonly runs: readonly TableRun[];
  /** No line is skipped in a table: zero for each run. */
  readonly skipped: readonly RunSkipped[];
  /** Bytes the server sent back (O(instances), not O(rows)). */
  readonly bytes: number;
}

/** `command` names the subcommand in messages (`check`, `history`). */
export async function readClickHouseRuns(command: string, source: ClickHouseSource, selections: readonly RunSelection[], options: FeatureOptions): Promise<TableRunsRead> {
  const shape = tableShape(source.mapping ?? 'records', source.columns);
  if (runColumn(shape) === null) {
    throw new InputError(`${command} with --clickhouse needs the column naming each run: --columns run=COLUMN`, undefined, undefined,
      'a build id, a commit or a nightly date; a field may be an SQL expression, e.g. --columns run=ResourceAttributes[\'ci.run\']');
  }
  return onTable(source, shape, async (run, resolved) => {
    const filters: { selection: number; spec: string; filter: ClassFilter }[] = selections.flatMap((s, i) =>
      s.specs.map((spec) => ({ selection: i, spec, filter: classFilter(spec, resolved) })));
    let bytes = 0;
    const count = (n: number): void => { bytes += n; };
    // Every instance of every selected run: its duration (Dref is their median), its run's first time, the selections it is in.
    const durations: number[] = [];
    const found = new Map<string, { first: number; selections: Set<number> }>();
    const matched = new Int32Array(filters.length);
    for await (const row of run(runInstancesQuery(resolved, filters.map((f) => f.filter)), count)) {
      durations.push(Number(row.duration));
      const name = String(row.run);
      const r = found.get(name) ?? { first: Infinity, selections: new Set<number>() };
      r.first = Math.min(r.first, Number(row.first));
      (row.selected as unknown[]).forEach((x, k) => {
        if (Number(x) === 1) {
          matched[k]!++;
          r.selections.add(filters[k]!.selection);
        }
      });
      found.set(name, r);
    }
    filters.forEach((f, k) => {
      if (matched[k] === 0) {
        throw new InputError(`${command}: no rows of ${source.table} match the ${selections[f.selection]!.label} ${f.spec}`, undefined, undefined,
          `a selection is a time window START/END (ISO-8601 or epoch seconds) or an SQL condition on the table's columns; rows with an empty ${runColumn(shape)} belong to no run`);
      }
    });
    const runs: TableRun[] = [];
    for (const [name, r] of found) {
      const [a, b] = [...r.selections].sort((x, y) => x - y);
      if (b !== undefined) {
        throw new InputError(`${command}: run '${name}' has rows in the ${selections[a!]!.label} and in the ${selections[b]!.label}: each run belongs to one`, undefined, undefined,
          'narrow the conditions (or the windows) so that no run is in two');
      }
      runs.push({ name, className: selections[a!]!.className, first: r.first });
    }
    const selectionOf = new Map([...found].map(([name, r]) => [name, [...r.selections][0]!]));
    runs.sort((x, y) => selectionOf.get(x.name)! - selectionOf.get(y.name)! || x.first - y.first || compareCodeUnits(x.name, y.name));
    const runIndex = new Map(runs.map((r, i) => [r.name, i]));

    const referenceDuration = median(Float64Array.from(durations));
    const all = anyOf(filters.map((f) => f.filter));
    const services: string[] = [];
    if (resolved.type === 'spans') for await (const r of run(servicesQuery(resolved, all), count)) services.push(String(r.service));
    const collector = new FeatureCollector(false);
    const runOfId = new Map<string, number>();
    const named = namedInstances(shape);
    for await (const row of run(featureQuery(resolved, all, referenceDuration, services), count)) {
      const r = runIndex.get(String(row.d_run));
      // (Both queries read the same rows: a run the first did not see would be a table written to meanwhile.)
      if (r === undefined) throw new InputError(`${command}: run '${String(row.d_run)}' appeared in ${source.table} while it was read; read it again`);
      runOfId.set(String(row.d_instance), r);
      addRow(collector, runs[r]!.className, row, named);
    }
    const features = buildFeatureSet(collector, options);
    const runOf = Int32Array.from(features.features.instances, (i) => runOfId.get(i.id) ?? -1);
    const skipped = runs.map((r): RunSkipped => ({ run: r.name, lines: 0, lost: 0, firstLost: '', examples: [] }));
    return { features, runOf, runs, skipped, bytes };
  });
}
