/** A template-mining worker (worker_threads): mines whole files and posts back each file's FileMining. See mine-parallel.ts. */
import { parentPort, workerData } from 'node:worker_threads';
import type { InputFile } from '../files.js';
import { mineFile } from './index.js';
import type { MiningPass } from './types.js';
import { mineReply, type MineReply } from './mine-parallel.js';

const options = workerData as MiningPass;
const port = parentPort!;

/** Bytes read and not yet told (every MiB, and before each reply). */
let pending = 0;
const tell = (): void => {
  if (pending > 0) port.postMessage({ type: 'bytes', n: pending } satisfies MineReply);
  pending = 0;
};

let queue: Promise<void> = Promise.resolve();
port.on('message', (msg: { index: number; file: InputFile }) => {
  queue = queue.then(async () => {
    const reply = await mineReply(msg.index, msg.file, options, mineFile, (n) => {
      pending += n;
      if (pending >= 1 << 20) tell();
    });
    tell();
    const heads = reply.type === 'done' ? reply.mining.heads : undefined;
    port.postMessage(reply, reply.type === 'done'
      ? [reply.mining.lineKeys.buffer as ArrayBuffer, ...(heads === undefined ? [] : [heads.t.buffer, heads.start.buffer, heads.head.buffer, ...(heads.numbers === undefined ? [] : [heads.numbers.buffer])] as ArrayBuffer[])]
      : []);
  });
});
