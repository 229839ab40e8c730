/**
 * Which bytes end a line (SPEC §1 leaves it open): LF, or CRLF (the readers
 * strip the CR), or a lone CR (classic Mac OS, some serial-console captures)
 * for a file whose first chunk (64 KiB) holding a CR or LF holds CRs and no
 * LF at all, and is either at least MIN_DECIDING bytes long or the whole file
 * with two CRs or more: then every CR of the file ends a line. In any other
 * file a lone CR inside a line is a character of it (shown escaped): so a
 * short piece or a one-record file with a CR in a name stays one line.
 * U+2028/U+2029, NEL, VT and FF never end a line, as for grep, wc and awk.
 *
 * `apply` rewrites each CR to LF in place in a lone-CR file's chunks, so the
 * readers (readLines, readDlogFast) keep splitting on LF only.
 */
export class LineEnds {
  private mode: 'unknown' | 'lf' | 'cr' = 'unknown';

  /** `size`: the file's size when known (not compressed, not a stream), to tell a chunk that is the whole file. */
  constructor(private readonly size?: number) {}

  /** Whether lines are known to end in LF (or CRLF): chunks are then left as they are. */
  get lf(): boolean {
    return this.mode === 'lf';
  }

  apply(chunk: Uint8Array): void {
    if (this.mode === 'lf') return;
    if (this.mode === 'unknown') {
      const lf = chunk.indexOf(10);
      const cr = chunk.indexOf(13);
      if (lf === -1 && cr === -1) return;
      let lone = lf === -1 && chunk.length >= MIN_DECIDING;
      if (lf === -1 && !lone && chunk.length === this.size) lone = chunk.indexOf(13, cr + 1) !== -1;
      this.mode = lone ? 'cr' : 'lf';
      if (!lone) return;
    }
    for (let i = chunk.indexOf(13); i !== -1; i = chunk.indexOf(13, i + 1)) chunk[i] = 10;
  }
}

/** No log has this many bytes without an LF in them but with a CR, unless its lines end in CR. */
const MIN_DECIDING = 512;
