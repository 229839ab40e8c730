/** A template-mining worker (worker_threads): mines whole files and posts back each file's FileMining. See mine-parallel.ts. */
import { parentPort, workerData } from 'node:worker_threads';
import type { InputFile } from '../files.js';
import type { TemplateOptions } from './index.js';
import { mineReply } from './mine-parallel.js';

const options = workerData as TemplateOptions;
const port = parentPort!;

let queue: Promise<void> = Promise.resolve();
port.on('message', (msg: { index: number; file: InputFile }) => {
  queue = queue.then(async () => {
    const reply = await mineReply(msg.index, msg.file, options);
    port.postMessage(reply, reply.type === 'done' ? [reply.mining.lineKeys.buffer as ArrayBuffer] : []);
  });
});
