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

/**
 * What a thrown value says, for an error naming whose code threw it (a
 * translator module's): an Error's message, else the value as text. Never
 * throws itself: a value whose toString throws, or that has none
 * (`Object.create(null)`), is shown by its type.
 */
export function thrownMessage(err: unknown): string {
  try {
    if (err instanceof Error) return String(err.message);
    return String(err);
  } catch {
    let type = 'a value';
    try {
      type = Object.prototype.toString.call(err);
    } catch {
      // a revoked proxy: its type cannot be asked either
    }
    return `it threw ${type}, which cannot be shown as text`;
  }
}
