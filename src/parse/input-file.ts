/**
 * What an input file is, apart from how it is listed (files.ts) or read
 * (chunks.ts, tail-help.ts): a leaf they all import, so the reader of chunks
 * does not import the lister that calls it (issue 56: no import circles).
 */

/** One input file of a class. */
export interface InputFile {
  /** Path to open, or `-` for standard input. */
  readonly path: string;
  /** Path relative to the class root, with `/` separators: the default instance id. */
  readonly relativePath: string;
  readonly gzip: boolean;
  /** Size on disk in bytes (0 for stdin). */
  readonly size: number;
  /**
   * Its first and last records' times, read from its two ends before the
   * reading (sniff.ts, recordEndsAhead) when it is one run's plain dlog: a
   * large one is then summarized as it is read, its records not held
   * (features/streamed.ts).
   */
  readonly ends?: RecordEnds;
}

/** The times of a file's first and last records. */
export interface RecordEnds {
  readonly first: number;
  readonly last: number;
}

/** A file on disk read as it is: neither standard input nor compressed (its listed size is its bytes). */
export function plainFile(file: InputFile): boolean {
  return file.path !== '-' && !file.gzip;
}
