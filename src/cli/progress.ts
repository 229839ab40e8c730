import { formatBytes } from '../report/format.js';

/** The progress line on the terminal now, if any: cleared before any other message (clearProgressLine). */
let shown: Progress | null = null;

/** Clear the progress line, so that a message printed next starts its own line. */
export function clearProgressLine(): void {
  shown?.done();
}

/**
 * A one-line progress indication on stderr (files, bytes, rate, ETA), shown
 * only on a TTY, not in CI, not with --quiet, and only once a run passes a second.
 */
export class Progress {
  private bytes = 0;
  private files = 0;
  private readonly started = Date.now();
  private lastDraw = 0;
  private drawn = false;

  constructor(
    private readonly totalBytes: number,
    private readonly totalFiles: number,
    private readonly enabled: boolean,
    /** What the line says is being done. */
    private readonly doing = 'reading',
  ) {}

  static enabledFor(quiet: boolean): boolean {
    return !quiet && process.stderr.isTTY === true && !process.env.CI;
  }

  addBytes(n: number): void {
    this.bytes += n;
    this.maybeDraw();
  }

  fileDone(): void {
    this.files++;
    this.maybeDraw();
  }

  done(): void {
    if (this.drawn) process.stderr.write('\r\x1b[K');
    this.drawn = false;
    if (shown === this) shown = null;
  }

  private maybeDraw(): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.started < 1000 || now - this.lastDraw < 200) return;
    this.lastDraw = now;
    this.drawn = true;
    shown = this;
    const seconds = (now - this.started) / 1000;
    const rate = this.bytes / seconds;
    const left = this.totalBytes > this.bytes && rate > 0 ? (this.totalBytes - this.bytes) / rate : 0;
    const eta = this.totalBytes > 0 ? `, ETA ${left < 60 ? `${left.toFixed(0)} s` : `${(left / 60).toFixed(1)} min`}` : '';
    process.stderr.write(`\r\x1b[K${this.doing}: ${this.files}/${this.totalFiles} files, ${formatBytes(this.bytes)}${this.totalBytes > 0 ? ` of ${formatBytes(this.totalBytes)}` : ''}, ${formatBytes(rate)}/s${eta}`);
  }
}

/**
 * A progress line for the dependency-network stage (trees grown in the
 * network being learned), on stderr under the same conditions as Progress:
 * a TTY, not CI, not --quiet, and only once the stage passes a second.
 * `update` is the DependencyNetworkOptions.onProgress callback.
 */
export class StageProgress {
  private readonly started = Date.now();
  private lastDraw = 0;
  private drawn = false;

  constructor(private readonly enabled: boolean) {}

  readonly update = (done: number, total: number, network: string): void => {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.started < 1000 || now - this.lastDraw < 200) return;
    this.lastDraw = now;
    this.drawn = true;
    process.stderr.write(`\r\x1b[Kdependency networks: ${network}, ${done}/${total} trees`);
  };

  done(): void {
    if (this.drawn) process.stderr.write('\r\x1b[K');
    this.drawn = false;
  }
}
