import { Worker } from 'node:worker_threads';
import { InputError } from '../../errors.js';
import type { InputFile } from '../files.js';
import type { FileMining, TemplateOptions } from './index.js';

export type MineReply =
  | { readonly type: 'done'; readonly index: number; readonly mining: FileMining }
  | { readonly type: 'error'; readonly index: number; readonly message: string; readonly hint?: string }
  | { readonly type: 'crash'; readonly index: number; readonly message: string };

/**
 * Mine files on `jobs` worker threads (mine-worker.ts), one file at a time
 * per worker; results come back in file order. On an input error, the first
 * failing file in input order is reported, as a sequential pass would.
 */
export async function mineParallel(files: readonly InputFile[], jobs: number, options: TemplateOptions): Promise<FileMining[]> {
  const workerUrl = new URL('./mine-worker.js', import.meta.url);
  const workers = Array.from({ length: Math.min(jobs, files.length) }, () => new Worker(workerUrl, { workerData: options }));
  const replies: MineReply[] = [];
  let next = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      let busy = 0;
      const dispatch = (w: Worker): void => {
        if (next >= files.length) return;
        const index = next++;
        busy++;
        w.postMessage({ index, file: files[index] });
      };
      for (const w of workers) {
        w.on('message', (reply: MineReply) => {
          busy--;
          replies[reply.index] = reply;
          dispatch(w);
          if (busy === 0) resolve();
        });
        w.on('error', reject);
        dispatch(w);
      }
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
