import { Worker } from 'node:worker_threads';
import { InputError } from '../../errors.js';
import type { InputFile } from '../input-file.js';
import type { FileMining, MiningPass, MiningProgress } from './types.js';

export type MineReply =
  | { readonly type: 'bytes'; readonly n: number }
  | { readonly type: 'done'; readonly index: number; readonly mining: FileMining }
  | { readonly type: 'error'; readonly index: number; readonly message: string; readonly hint?: string }
  | { readonly type: 'crash'; readonly index: number; readonly message: string };

/** Mines one file: index.ts mineFile, passed in, so that this pool does not import the miner that starts it. */
export type MineFile = (file: InputFile, options: MiningPass, onBytes?: (n: number) => void) => Promise<FileMining>;

/** A file's mining (by `mine`) as a reply: an InputError becomes 'error' (reported in file order), anything else 'crash'. */
export async function mineReply(index: number, file: InputFile, options: MiningPass, mine: MineFile, onBytes?: (n: number) => void): Promise<Exclude<MineReply, { type: 'bytes' }>> {
  try {
    return { type: 'done', index, mining: await mine(file, options, onBytes) };
  } catch (err) {
    return err instanceof InputError
      ? { type: 'error', index, message: err.message, ...(err.hint !== undefined ? { hint: err.hint } : {}) }
      : { type: 'crash', index, message: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
}

/**
 * Mine files on `jobs` threads: this one (with `mine`) and `jobs` − 1 worker
 * threads (mine-worker.ts), each taking the next file not yet taken; results come back
 * in file order. On an input error, the first failing file in input order is
 * reported, as a sequential pass would.
 */
export async function mineParallel(files: readonly InputFile[], jobs: number, options: MiningPass, mine: MineFile, progress: MiningProgress = {}): Promise<FileMining[]> {
  const workerUrl = new URL('./mine-worker.js', import.meta.url);
  const workers = Array.from({ length: Math.max(0, Math.min(jobs, files.length) - 1) }, () => new Worker(workerUrl, { workerData: options }));
  const replies: Exclude<MineReply, { type: 'bytes' }>[] = [];
  let next = 0;
  try {
    await new Promise<void>((resolve, rejectWith) => {
      const reject = (err: unknown): void => {
        next = files.length; // this thread takes no more files
        rejectWith(err);
      };
      let busy = 0;
      const finished = (): void => {
        if (busy === 0 && next >= files.length) resolve();
      };
      const dispatch = (w: Worker): void => {
        if (next >= files.length) return;
        const index = next++;
        busy++;
        w.postMessage({ index, file: files[index] });
      };
      for (const w of workers) {
        w.on('message', (reply: MineReply) => {
          if (reply.type === 'bytes') {
            progress.onBytes?.(reply.n);
            return;
          }
          busy--;
          progress.onFileDone?.();
          replies[reply.index] = reply;
          dispatch(w);
          finished();
        });
        w.on('error', reject);
        dispatch(w);
      }
      // This thread takes files too, between the workers' messages (its reads are asynchronous).
      busy++;
      void (async () => {
        while (next < files.length) {
          const index = next++;
          replies[index] = await mineReply(index, files[index] as InputFile, options, mine, progress.onBytes);
          progress.onFileDone?.();
        }
        busy--;
        finished();
      })().catch(reject);
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return replies.map((r) => {
    if (r.type === 'done') return r.mining;
    if (r.type === 'crash') throw new Error(`template mining worker failed: ${r.message}`);
    throw new InputError(r.message, undefined, undefined, r.hint);
  });
}
