/** A template-mining worker (worker_threads): mines whole files and posts back each file's FileMining. See mine-parallel.ts. */
import { parentPort, workerData } from 'node:worker_threads';
import { InputError } from '../../errors.js';
import type { InputFile } from '../files.js';
import { mineFile, type TemplateOptions } from './index.js';
import type { MineReply } from './mine-parallel.js';

const options = workerData as TemplateOptions;
const port = parentPort!;

let queue: Promise<void> = Promise.resolve();
port.on('message', (msg: { index: number; file: InputFile }) => {
  queue = queue.then(async () => {
    let reply: MineReply;
    try {
      reply = { type: 'done', index: msg.index, mining: await mineFile(msg.file, options) };
    } catch (err) {
      reply = err instanceof InputError
        ? { type: 'error', index: msg.index, message: err.message, ...(err.hint !== undefined ? { hint: err.hint } : {}) }
        : { type: 'crash', index: msg.index, message: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    }
    port.postMessage(reply, reply.type === 'done' ? [reply.mining.lineKeys.buffer as ArrayBuffer] : []);
  });
});
