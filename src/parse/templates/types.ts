/**
 * What template mining takes and gives per file: plain data, shared by the
 * miner (index.ts) and its thread pool (mine-parallel.ts, mine-worker.ts), a
 * leaf so the pool does not import the miner that starts it (issue 56: no
 * import circles).
 */
import type { ColumnOverrides, TableLayout } from '../layout.js';
import type { DrainParameters } from './drain.js';
import type { IdCounts } from './instances.js';
import type { FileTimestamp } from './timestamps.js';
import type { TextHeader } from './header.js';

/** What the mining pass tells as it goes (a compressed file's bytes are its compressed ones, as the reading's). */
export interface MiningProgress {
  /** The pass begins (raw logs found): the bytes and files it reads. */
  readonly onMining?: (bytes: number, files: number) => void;
  readonly onBytes?: (n: number) => void;
  readonly onFileDone?: () => void;
}

export interface TemplateOptions {
  readonly drain?: DrainParameters;
  /** --timestamp FORMAT: force the timestamp format of every file. */
  readonly timestamp?: string;
  /** --instance-pattern REGEX: the instance id is group `id` (else 1) of this regex. */
  readonly instancePattern?: string;
  /** --header-pattern REGEX: the text header after the timestamp (groups `level`, `entity`), not learned (header.ts patternHeader). */
  readonly headerPattern?: string;
  /** Year for timestamps without one (syslog). Default: the current year. */
  readonly year?: number;
  /** Tables: columns named instead of detected (--message-column, --entity-column, --trace-column, --time-column). */
  readonly columns?: ColumnOverrides;
}

export interface FileLayout extends FileTimestamp {
  /** CSV: the first line is a header. */
  readonly header: boolean;
  /** Syslog: the field after the timestamp is the host, not part of the message. */
  readonly host: boolean;
  /** A table (CSV/TSV with a header, JSON Lines): its columns' roles (src/parse/layout.ts). */
  readonly table?: TableLayout;
  /** A text header joined by `|`: how many bars after the timestamp are read as spaces (header.ts). */
  readonly pipes?: number;
  /** A text header's leading id fields (pid, tid) after the timestamp, left out of the message (header.ts). */
  readonly ids?: number;
  /** A text header's fields after the timestamp (header.ts learnTextHeader): left out of the message; level and entity read. */
  readonly textHeader?: TextHeader;
}

/** A file's line keys (LineReplay.lines in replay.ts). */
export type LineKeys = Uint16Array | Int32Array;

/**
 * A file's lines as the mining pass split them (replay.ts HeadsRecorder), for the translating pass not to split them
 * again: per line (index lineNo − 1) its time, where its message starts in it, and its level and entity.
 */
export interface LineHeads {
  readonly t: Float64Array;
  /** −1: the line is split again (its message is not the line's end, or it had no key). */
  readonly start: Int32Array;
  /** Index of the line's [level, entity] pair in `parts`. */
  readonly head: Uint16Array;
  /** The pairs, flattened: level, entity, level, entity… (the first pair is '', ''). */
  readonly parts: readonly string[];
  /** The file's size and modification time when mined: its heads are used only while both are the same. */
  readonly size: number;
  readonly mtimeMs: number;
  /**
   * Per line that has a key, in line order: the numbers at its key's numbered positions (replay.ts NumbersRecorder),
   * what the translating pass would read from it; with them a file's records are emitted without reading it again
   * (MinedTranslator.translateFile). Only when mineTemplates asked for them (MiningPass.numbers).
   */
  readonly numbers?: Float64Array;
}

/**
 * What one file contributes to mining: its layout, and its distinct message
 * keys in order of first occurrence, each with its masked tokens, line count,
 * first line and which positions held something other than a number. Plain
 * data, so a worker can compute it (mine-worker.ts).
 */
export interface FileMining {
  readonly path: string;
  readonly layout: FileLayout;
  readonly keys: Array<{
    readonly key: string;
    readonly masked: string[];
    /** The token positions that can read as a number (replay.ts readsAsNumber); any other reads as NaN on every line of the key. */
    readonly numbered: readonly number[];
    count: number;
    readonly example: string;
    readonly timed: boolean;
    /** 1 where a line of this key had a word, a bracketed id or a non-number. */
    readonly notNumeric: Uint8Array;
    /** Per variable position (numbers only): the one value all its lines had, or null when they differed. */
    readonly values: Array<string | null | undefined>;
    /** The earliest and latest times of its lines (an untimed line's is the line's it continues). */
    first: number;
    last: number;
  }>;
  /** For the id rule: what its sampled lines counted (IdFieldCounter, merged over files in mergeMinings). */
  readonly ids: IdCounts;
  readonly hosts: string[];
  readonly lines: number;
  readonly untimed: number;
  /** See TemplateModel.continued, .foreign and .foreignExample. */
  readonly continued: number;
  /** CRI lines cut by the runtime (`P`) with no final part at the file's end, kept as they are (cri-partial.ts); absent: none. */
  readonly partial?: number;
  readonly foreign: number;
  /** The first foreign line: its number and text (clipped). */
  readonly foreignLine: number;
  readonly foreignText: string;
  /** Whether the file held no log line (TemplateModel.empty). */
  readonly empty: boolean;
  /** Per line (index lineNo − 1): 1 + the index in `keys` of its message key, 0 for a line with none (header, untimed, too long). */
  readonly lineKeys: Int32Array;
  /** Log statements its lines name (layout.ts readHead), in order of first occurrence: not mined. */
  readonly statements: Array<{ readonly location: string; count: number; readonly example: string; first: number; last: number }>;
  /** Its lines' heads (a text log's, when mineTemplates asked for them: MiningPass.heads). */
  readonly heads?: LineHeads;
}

/** TemplateOptions and what mineTemplates decides for its pass: whether files keep their lines' heads (LineHeads). */
export interface MiningPass extends TemplateOptions {
  readonly heads?: boolean;
  /** Whether text logs that keep their heads also keep their lines' numbers (LineHeads.numbers). */
  readonly numbers?: boolean;
}
