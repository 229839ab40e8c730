/**
 * A parsing worker (worker_threads): reads whole files, each into a fresh
 * FeatureCollector, and posts back the file's contribution. See parallel.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { useProcessGroupTable } from '../cleanup.js';
import { InputError } from '../errors.js';
import { FeatureCollector, type FileContribution } from '../features/collector.js';
import type { InputFile } from './files.js';
import { emptyReadStats, readClass } from './reader.js';
import type { ClassName } from './records.js';
import type { Translator } from './translator.js';
import { PARTS_AHEAD, type WorkerInit, type WorkerReply } from './parallel.js';

const init = workerData as WorkerInit;
const port = parentPort!;
let translator: Translator | undefined;
let pendingBytes = 0;
const partsAbsorbed = init.partsAbsorbed !== undefined ? new Int32Array(init.partsAbsorbed) : undefined;
let partsSent = 0;

/**
 * After sending a part: wait (blocking this worker only) while more than
 * PARTS_AHEAD of its parts are not yet absorbed by the main thread. The
 * wait re-checks every 100 ms, so a stop is seen even if a wake-up is missed.
 */
function awaitRoom(): void {
  if (partsAbsorbed === undefined) return;
  for (;;) {
    const absorbed = Atomics.load(partsAbsorbed, 0);
    if (partsSent - absorbed <= PARTS_AHEAD) return;
    Atomics.wait(partsAbsorbed, 0, absorbed, 100);
  }
}
// Translator programs started here are registered where the main thread's signal handler sees them.
if (init.processGroups !== undefined) useProcessGroupTable(init.processGroups);

async function handle(index: number, file: InputFile, className: ClassName, wholeClass: boolean): Promise<WorkerReply> {
  try {
    if (init.templates !== undefined && translator === undefined) {
      const { templateTranslator } = await import('./templates/index.js');
      translator = templateTranslator(init.templates);
    }
    if (init.translator !== undefined && translator === undefined) {
      const { loadTranslator } = await import('./translators/load.js');
      translator = await loadTranslator(init.translator, init.year !== undefined ? { year: init.year } : {});
    }
    const collector = new FeatureCollector(init.keepSeries);
    const stats = await readClass([file], className, collector, {
      ...(translator !== undefined ? { translator } : {}),
      strict: init.strict,
      onBytes: (n) => {
        pendingBytes += n;
        if (pendingBytes >= 1 << 20) {
          port.postMessage({ type: 'bytes', n: pendingBytes } satisfies WorkerReply);
          pendingBytes = 0;
        }
      },
    }, emptyReadStats());
    const send = (part: FileContribution): void => {
      port.postMessage({ type: 'part', index, contribution: part } satisfies WorkerReply, buffersOf(part));
      partsSent++;
      awaitRoom();
    };
    return { type: 'done', index, contribution: wholeClass ? collector.exportWholeClass(send) : collector.exportFile(), stats };
  } catch (err) {
    if (err instanceof InputError) return { type: 'error', index, message: err.message, ...(err.hint !== undefined ? { hint: err.hint } : {}) };
    return { type: 'crash', index, message: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
}

// An error escaping from a translator module (a timer, a forgotten promise) ends the run as the
// translator's failure; anything else is distalyze's bug.
const escaped = (err: unknown): void => {
  void import('./translators/module.js').then(({ translatorFailureOf }) => {
    const failure = translatorFailureOf(err);
    port.postMessage(failure !== null
      ? { type: 'fatal', message: failure.message, ...(failure.hint !== undefined ? { hint: failure.hint } : {}) } satisfies WorkerReply
      : { type: 'fatal', message: err instanceof Error ? (err.stack ?? err.message) : String(err), internal: true } satisfies WorkerReply);
  });
};
process.on('uncaughtException', escaped);
process.on('unhandledRejection', escaped);

// Files are parsed one after another, in the order they were handed out.
let queue: Promise<void> = Promise.resolve();
port.on('message', (msg: { index: number; file: InputFile; className: ClassName; wholeClass: boolean }) => {
  queue = queue.then(() => handle(msg.index, msg.file, msg.className, msg.wholeClass)).then((reply) => {
    if (pendingBytes > 0) {
      port.postMessage({ type: 'bytes', n: pendingBytes } satisfies WorkerReply);
      pendingBytes = 0;
    }
    // The contribution's typed arrays are fresh copies: moved, not cloned.
    port.postMessage(reply, reply.type === 'done' ? buffersOf(reply.contribution) : []);
  });
});

/** The distinct ArrayBuffers of a contribution's typed arrays, for the transfer list. */
function buffersOf(c: FileContribution): ArrayBuffer[] {
  const all = [c.durations, c.starts, c.eventValues, c.stateValues, c.seriesVar, c.seriesT, c.seriesV, c.heldCode, c.heldT, c.heldV, c.heldInst]
    .map((a) => a.buffer as ArrayBuffer);
  return [...new Set(all)];
}
