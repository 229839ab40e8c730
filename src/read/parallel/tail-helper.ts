/**
 * A parsing thread with nothing left to read helps the others (tail-help.ts):
 * while some thread shows a large file with enough left, it claims the rest
 * and reads it, sending the owner its pieces.
 */
import { readDlogTail } from '../../parse/fast/dlog-tail.js';
import type { InputFile } from '../../parse/files.js';
import { tailFile, type HelpBoard, type TailMessage } from '../../parse/tail-help.js';

/**
 * Help the other threads on `board` (this one is `self`, with no batch left
 * to read) while any may still read one: a rest worth taking is claimed and
 * read, else they are looked at again every POLL_MS (a thread shows its file
 * once its first chunk is read), for at most `waitMs` in a row. `files`: a
 * batch's files by its index; `send`: a message to an owner thread.
 *
 * The main thread does not wait for a file to be shown (WAIT_MAIN_MS): it
 * looks at every thread once, and again after each rest it read; a worker may
 * be waiting for it (a class summarized into its columns, parallel.ts), and
 * work of its own may follow. A worker looks until the main thread has no batch left: the main
 * thread reads its own without waiting for anyone. (A worker that has just
 * claimed a file shows it after its first chunk, a few ms: the main thread
 * may miss it then.)
 */
export async function helpOthers(board: HelpBoard, self: number, files: (batch: number) => readonly InputFile[] | undefined,
  send: (owner: number, m: TailMessage) => void, waitMs: number, minRest?: number, readAhead = true): Promise<void> {
  board.idle(self);
  let waited = 0;
  for (;;) {
    let helped = false;
    for (let owner = 0; owner < board.threads; owner++) {
      if (owner === self) continue;
      const claim = board.claim(owner, minRest);
      if (claim === null) continue;
      helped = true;
      const { gen } = claim;
      const file = tailFile(files, claim.key);
      const resumeAt = file === undefined ? -1 : await readDlogTail(file, claim.cut, (piece) => send(owner, { type: 'tail-piece', owner, gen, ...piece }), readAhead);
      send(owner, { type: 'tail-end', owner, gen, resumeAt });
    }
    // After a rest, look at every thread again; after none, again while one may show a file, for waitMs in a row.
    if (helped) {
      waited = 0;
      continue;
    }
    if (waited >= waitMs || !board.othersBusy(self)) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    waited += POLL_MS;
  }
}

const POLL_MS = 2;
/** How long the main thread waits for a file to be shown when it finds none (0: not at all). */
export const WAIT_MAIN_MS = 0;
