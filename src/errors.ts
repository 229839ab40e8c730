/**
 * Every failure a user can cause (bad input, bad options) is an InputError:
 * the CLI prints its message as one line and exits 2, never with a stack trace.
 * The message names the file and line (or the option) where that is known.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    message: string,
    readonly file?: string,
    readonly line?: number,
    readonly hint?: string,
  ) {
    super(InputError.format(message, file, line));
  }

  static format(message: string, file?: string, line?: number): string {
    if (file === undefined) return message;
    return line === undefined ? `${file}: ${message}` : `${file}:${line}: ${message}`;
  }
}
