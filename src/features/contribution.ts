/**
 * What a collector hands to another (FeatureCollector.exportFile, absorb):
 * one file's or batch's instances, summarized or held, in typed arrays that
 * cross a worker boundary (read/parallel/).
 */
import type { ClassName } from '../parse/records.js';

/**
 * What one file contributed, in a form that crosses a worker boundary
 * (structured clone): its own instances already summarized, the raw records of
 * instances named by `I` records (they may continue in other files), and the
 * variable names its codes refer to.
 */
export interface FileContribution {
  readonly className: ClassName;
  readonly eventNames: string[];
  readonly stateNames: string[];
  /** The event variables (by number in eventNames) that are spans' (RecordSink.eventFromSpans); absent: none. */
  readonly eventsFromSpans?: readonly number[];
  readonly ids: string[];
  readonly durations: Float64Array;
  readonly starts: Float64Array;
  // Per slot, in typed arrays where they can be (a structured clone of an array of
  // 46 603 booleans or nulls takes ~3 ms; of a typed array, a copy).
  readonly recordCounts: Float64Array;
  /** null: no slot has a kind. */
  readonly kinds: (string | null)[] | null;
  readonly entryEvents: Int32Array;
  /** 1: named by `I` records. */
  readonly named: Int32Array;
  /**
   * Feature values of this file's slots, packed in one buffer per log kind:
   * value of local variable v, feature type f, slot s at [(v × types + f) × slots + s]
   * (NaN = missing), for the first eventVariables / stateVariables variables.
   */
  readonly eventValues: Float64Array;
  readonly eventVariables: number;
  readonly stateValues: Float64Array;
  readonly stateVariables: number;
  readonly seriesVar: Int32Array;
  readonly seriesT: Float64Array;
  readonly seriesV: Float64Array;
  /** Each slot's first point in seriesVar/T/V (typed: a part of 65 536 slots crosses to another thread as one buffer). */
  readonly seriesStart: Int32Array;
  readonly unorderedInstances: number;
  readonly emptyFile: string | null;
  readonly heldIds: string[];
  /** The kinds of heldIds, up to the last one given (null before it): shorter than heldIds, or empty, when the rest have none. */
  readonly heldKinds: (string | null)[];
  readonly heldCode: Int32Array;
  readonly heldT: Float64Array;
  readonly heldV: Float64Array;
  readonly heldInst: Int32Array;
  /**
   * Instances named by `I` records that the file's reader already summarized
   * (the file was its class's whole input), in order of first appearance: the
   * absorbing collector only notes their ids (for ids shared by both classes).
   */
  readonly namedIds: string[];
  /**
   * heldIds are strictly ascending as they were named, so each instance's
   * records are one run of held records, in id order (absorbSegments).
   */
  readonly heldAscending?: boolean;
  /** The instances named by `I` records are this part's named slots, in slot order: their ids are namedIds too. */
  readonly namedInSlots?: boolean;
  /**
   * Its slots are the next ones of the ids its sender named ahead, taken in
   * their sorted order (namedIdsAhead, namedOrderAhead): `ids` is empty, the
   * slots are counted by `durations` (see withSlotIds).
   */
  readonly idsAhead?: boolean;
  /** Its state change points stayed in the worker that sent it (WorkerInit.seriesInWorkers): q*.abs come later (QuartileRequest). */
  readonly pointsKept?: boolean;
  /**
   * At most how many slots this part and the parts its export hands on after
   * it hold together (0: no more than its own): the absorbing collector makes
   * room for them at once instead of growing its columns by doubling.
   */
  readonly slotsAhead: number;
  /**
   * Present when the feature values were summarized straight into the
   * absorbing collector's shared columns (see shareColumns): each column's
   * length (event variables by feature, then state variables), and
   * eventValues / stateValues are empty.
   */
  readonly sharedLengths?: Int32Array;
}

/**
 * Columns shared between threads (see FeatureCollector.shareColumns): per
 * variable of the worker's numbering, one buffer per feature type, and the
 * slots of the worker's instances in them.
 */
export interface SharedColumns {
  readonly base: number;
  readonly slots: number;
  /** Each column's whole storage: a view of a SharedArrayBuffer that holds many columns (shareAll). */
  readonly events: readonly (readonly Float64Array[])[];
  readonly states: readonly (readonly Float64Array[])[];
}
