/** Contributions (features/contribution.ts) as the workers and the parallel reader make and take them apart. */
import type { ClassName } from '../../parse/records.js';
import type { FileContribution } from '../../features/contribution.js';

/**
 * A part whose slot ids were not sent with it (FileContribution.idsAhead),
 * with them: `ids`, its sender's named ids, in their sorted order `sorted`,
 * from place `from` on.
 */
export function withSlotIds(part: FileContribution, ids: readonly string[], sorted: Int32Array, from: number): FileContribution {
  const slots = part.durations.length;
  if (from + slots > sorted.length) throw new Error(`a part's ${slots} slots go past the ${sorted.length} ids named ahead (from ${from})`);
  const own = new Array<string>(slots);
  for (let i = 0; i < slots; i++) own[i] = ids[sorted[from + i] as number] as string;
  return { ...part, ids: own };
}

/** A contribution of class `className` that brings nothing (absorbing it changes nothing). */
export function emptyContribution(className: ClassName): FileContribution {
  return {
    className, eventNames: [], stateNames: [], ids: [],
    durations: new Float64Array(0), starts: new Float64Array(0), recordCounts: new Float64Array(0), kinds: null,
    entryEvents: new Int32Array(0), named: new Int32Array(0),
    eventValues: new Float64Array(0), eventVariables: 0, stateValues: new Float64Array(0), stateVariables: 0,
    seriesVar: new Int32Array(0), seriesT: new Float64Array(0), seriesV: new Float64Array(0), seriesStart: new Int32Array(0),
    unorderedInstances: 0, emptyFile: null,
    heldIds: [], heldKinds: [], heldCode: new Int32Array(0), heldT: new Float64Array(0), heldV: new Float64Array(0), heldInst: new Int32Array(0),
    namedIds: [], slotsAhead: 0,
  };
}

/** A contribution without its state change points (each slot's range empty): they stay, or are used, elsewhere. */
export function withoutPoints(c: FileContribution): FileContribution {
  return { ...c, seriesStart: new Int32Array(c.seriesStart.length), seriesVar: new Int32Array(0), seriesT: new Float64Array(0), seriesV: new Float64Array(0) };
}

/**
 * Each run of a contribution's change points — one state variable's points
 * [from, to) in one slot — in order: a run ends where the variable or the
 * slot changes (seriesStart: each slot's first point).
 */
export function forEachRun(seriesStart: Int32Array, vars: Int32Array, run: (slot: number, v: number, from: number, to: number) => void): void {
  const slots = seriesStart.length;
  const end = vars.length;
  for (let slot = 0; slot < slots; slot++) {
    let i = seriesStart[slot] as number;
    const stop = slot + 1 < slots ? (seriesStart[slot + 1] as number) : end;
    while (i < stop) {
      const v = vars[i] as number;
      let j = i;
      while (j < stop && vars[j] === v) j++;
      run(slot, v, i, j);
      i = j;
    }
  }
}
