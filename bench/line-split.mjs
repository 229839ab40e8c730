// The node line loop's work on decoded text (bench/line-loop.mjs, and the
// machine check's `files` kind): every line made a string, lines and
// characters counted so that nothing is optimised away. One per file: write
// each decoded chunk, then end with the decoder's rest.
export class LineSplitter {
  lines = 0;
  chars = 0;
  carry = '';

  write(text) {
    let { lines, chars, carry } = this;
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl === -1) break;
      const line = carry.length > 0 ? carry + text.slice(start, nl) : text.slice(start, nl);
      carry = '';
      lines++;
      chars += line.length;
      start = nl + 1;
    }
    if (start < text.length) carry += text.slice(start);
    this.lines = lines;
    this.chars = chars;
    this.carry = carry;
  }

  /** The file's last line, if it has no '\n' after it. */
  end(rest) {
    const last = this.carry + rest;
    this.carry = '';
    if (last.length > 0) {
      this.lines++;
      this.chars += last.length;
    }
  }
}
