import type { InputFile } from '../parse/files.js';
import type { EntitySeries, MetricSeries } from '../parse/metrics.js';
import type { ClassSink } from '../parse/reader.js';
import type { ClassName } from '../parse/records.js';
import { serviceOfPod } from '../parse/spans.js';
import { logErfc } from '../stats/erfc.js';
import { median, medianOfSorted } from '../stats/median.js';
import { firstAbove, firstAtLeast } from './sorted.js';

/**
 * How a metric sample becomes a state value. A sample is one value of an
 * entity at one time, shared by every instance that ran then: with samples a
 * minute apart, all requests of a one-minute class carry the same one or two
 * values, and a t-test over requests finds every metric of every pod
 * "significant" between any two minutes (on TrainTicket, hundreds of tied
 * perfectly separated variables). So by default (`band` k = 3) a sample x of
 * entity e, metric m is expressed against e's own history (all its samples in
 * the metric files): z = (x − median) / s, s = 1.4826·MAD (the normal-
 * consistent robust SD; the SD where MAD = 0), and the value is the excess
 * over the normal band, sign(z)·max(0, |z| − k): 0 while the entity behaves
 * as it usually does, positive (negative) in robust SDs beyond it. A series
 * that never changes (s = 0) gives 0. k = 0 gives the plain robust z (an affine
 * map of the raw value, so t-tests equal those on raw values).
 */
export interface MetricJoinOptions {
  readonly band: number;
  /** Seconds of history before a sample whose median is its usual level (0: the whole series). */
  readonly window: number;
  /** Which instant a sample describes: see samplesOver. */
  readonly align: 'start' | 'end';
  /**
   * Widen each sample's band to the largest |z| its entity shows more than
   * `window` away from it (before or after) in the metric files: only what the
   * entity does nowhere else counts (see largestElsewhere).
   */
  readonly beyondRange?: boolean;
}

/**
 * The band by default: k with P(|Z| > k) = α / m for a standard normal Z, m =
 * the number of (entity, metric) series — Bonferroni over the series, as a
 * normally behaving series should cross it anywhere with probability ≤ α
 * (TrainTicket: m = 645, α = 0.05: k = 3.95). Solved by bisection on
 * ln erfc(k/√2) = ln(α/m).
 */
export function bonferroniBand(alpha: number, m: number): number {
  const target = Math.log(alpha / Math.max(1, m));
  let lo = 0;
  let hi = 40;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (logErfc(mid / Math.SQRT2) > target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The number of (entity, metric) series with at least one sample. */
export function seriesCount(metrics: MetricSeries): number {
  let m = 0;
  for (const list of metrics.byService.values()) for (const s of list) for (const v of s.values) if (v.some((x) => !Number.isNaN(x))) m++;
  return m;
}

/** Median and robust scale of one metric series (NaN skipped): see MetricJoinOptions. */
export function robustCenterScale(values: ArrayLike<number>): { center: number; scale: number } {
  const center = median(values);
  const dev: number[] = [];
  let ss = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (Number.isNaN(v)) continue;
    dev.push(Math.abs(v - center));
    ss += (v - center) * (v - center);
    n++;
  }
  const mad = 1.4826 * median(dev);
  return { center, scale: mad > 0 ? mad : n > 1 ? Math.sqrt(ss / (n - 1)) : 0 };
}

/** sign(z)·max(0, |z| − band) with z = (x − center) / scale; 0 for scale 0. */
export function excessOverBand(x: number, center: number, scale: number, band: number): number {
  if (!(scale > 0)) return 0;
  const z = (x - center) / scale;
  return Math.sign(z) * Math.max(0, Math.abs(z) - band);
}

/** What one instance did while being read: its time span and the services it touched. */
interface Track {
  tMin: number;
  tMax: number;
  readonly services: Set<string>;
}

const newTrack = (): Track => ({ tMin: Infinity, tMax: -Infinity, services: new Set() });

/**
 * Joins resource metrics to the instances that touched their entity (a stage
 * between the reader and the collector). While records stream through, it
 * tracks per instance its time span [tMin, tMax] and the services it touched:
 * a record whose name starts `<service>:` (a span's `service:operation…`, a
 * translator's `service:Class#line`), where `<service>` is a metric entity
 * with its Kubernetes replica suffix removed (or given as such). Before the
 * class ends (`finishClass`, to be called before the collector's) it adds, to
 * each I-named instance, every touched entity's samples in (tMin, tMax] plus
 * the last sample at or before tMin, as state records `<service>:<metric>`.
 * The sample before the start is recorded at tMin (it is the value in force
 * then), so the join never stretches an instance's duration.
 * A file without `I` records (one file = one instance) gets its states at the
 * file's end.
 */
export class MetricJoin implements ClassSink {
  /** Instance–service pairs joined, and state records added, for the summary. */
  joins = 0;
  records = 0;
  /** The state variables it emitted (`service:metric`). */
  readonly variables = new Set<string>();
  /** Joins (instance–service pairs) where no sample's interval meets the instance's time (see covers), and the farthest such. */
  uncovered = 0;
  private farthest = { distance: 0, example: '' };
  private currentId = '';
  private readonly gaps = new Map<EntitySeries, number>();
  private named = new Map<string, Track>();
  private fileTrack = newTrack();
  private fileNamed = false;
  private current: Track = this.fileTrack;
  private readonly serviceOfPrefix = new Map<string, string | null>();
  /** Per entity series, per metric: its center and scale. */
  private readonly bands = new Map<EntitySeries, { centers: Float64Array; scale: number; range: Float64Array | null }[]>();

  constructor(private readonly metrics: MetricSeries, private readonly inner: ClassSink, private readonly options: MetricJoinOptions = { band: 3, window: 1800, align: 'end' }) {}

  /** Per metric of a series: each sample's usual level (median of the window before it) and the series' robust scale; computed on first use. */
  private bandsOf(series: EntitySeries): { centers: Float64Array; scale: number; range: Float64Array | null }[] {
    let b = this.bands.get(series);
    if (b === undefined) {
      b = series.values.map((values) => {
        const whole = robustCenterScale(values);
        const centers = localMedians(series.times, values, this.options.window, whole.center);
        const range = this.options.beyondRange === true ? largestElsewhere(series.times, values, centers, whole.scale, this.options.window) : null;
        return { centers, scale: whole.scale, range };
      });
      this.bands.set(series, b);
    }
    return b;
  }

  beginFile(file: InputFile, className: ClassName): void {
    this.currentId = file.relativePath;
    this.fileTrack = newTrack();
    this.fileNamed = false;
    this.current = this.fileTrack;
    this.inner.beginFile(file, className);
  }

  endFile(file: InputFile, className: ClassName): void {
    if (!this.fileNamed && this.fileTrack.tMin <= this.fileTrack.tMax) this.emit(this.fileTrack);
    this.inner.endFile(file, className);
  }

  instance(id: string, kind?: string): void {
    this.currentId = id;
    this.fileNamed = true;
    let track = this.named.get(id);
    if (track === undefined) this.named.set(id, (track = newTrack()));
    this.current = track;
    this.inner.instance(id, kind);
  }

  event(t: number, name: string): void {
    this.see(t, name);
    this.inner.event(t, name);
  }

  eventFromSpans(name: string): void {
    this.inner.eventFromSpans?.(name);
  }

  state(t: number, name: string, value: number): void {
    this.see(t, name);
    this.inner.state(t, name, value);
  }

  /** Add the metric states of the class's I-named instances (in order of first appearance). Call before the collector's finishClass. */
  finishClass(): void {
    for (const [id, track] of this.named) {
      if (track.services.size === 0) continue;
      this.inner.instance(id);
      this.currentId = id;
      this.emit(track);
    }
    this.named = new Map();
  }

  private see(t: number, name: string): void {
    const c = this.current;
    if (t < c.tMin) c.tMin = t;
    if (t > c.tMax) c.tMax = t;
    const colon = name.indexOf(':');
    if (colon <= 0) return;
    const prefix = name.slice(0, colon);
    let service = this.serviceOfPrefix.get(prefix);
    if (service === undefined) {
      const s = serviceOfPod(prefix);
      service = this.metrics.byService.has(s) ? s : null;
      this.serviceOfPrefix.set(prefix, service);
    }
    if (service !== null) c.services.add(service);
  }

  /**
   * What the join said nothing about (one line each, none when all is well): no record named a metric entity's
   * service, or joins whose instance no sample covers (their samples are the nearest ones, possibly days away).
   */
  notes(): string[] {
    if (this.joins === 0) {
      return [`--metrics: nothing was joined: no record names a metric entity (its service, e.g. '${[...this.metrics.byService.keys()].slice(0, 3).join("', '")}') before a ':' (service:operation)`];
    }
    if (this.uncovered === 0) return [];
    return [`--metrics: ${this.uncovered} of ${this.joins} instance–service joins had no sample covering the instance's time (the nearest sample was used; ` +
      `farthest ${duration(this.farthest.distance)} away, ${this.farthest.example})`];
  }

  /** The series' usual sampling interval: the median gap between its samples (0 with fewer than two). */
  private gapOf(series: EntitySeries): number {
    let g = this.gaps.get(series);
    if (g === undefined) {
      const d: number[] = [];
      for (let k = 1; k < series.times.length; k++) d.push((series.times[k] as number) - (series.times[k - 1] as number));
      g = d.length > 0 ? median(d) : 0;
      this.gaps.set(series, g);
    }
    return g;
  }

  /**
   * How far the series' samples are from covering [tMin, tMax] (0: one covers it). A sample covers what it
   * describes (samplesOver): with align `end` the interval before it, with `start` the one after it, each at
   * most twice the usual interval long (a gap in the data covers nothing).
   */
  private distance(series: EntitySeries, tMin: number, tMax: number): number {
    const { times } = series;
    const n = times.length;
    if (n === 0) return Infinity;
    const g = this.gapOf(series);
    const lo = firstAtLeast(times, tMin);
    const after = lo < n ? (times[lo] as number) : Infinity;
    const before = lo > 0 ? (times[lo - 1] as number) : -Infinity;
    if (after <= tMax) return 0;
    const reach = 2 * g;
    const fromAfter = this.options.align === 'end' ? Math.max(0, after - reach - tMax) : after - tMax;
    const fromBefore = this.options.align === 'start' ? Math.max(0, tMin - (before + reach)) : tMin - before;
    return Math.min(fromAfter, fromBefore);
  }

  private emit(track: Track): void {
    for (const service of [...track.services].sort()) {
      this.joins++;
      const far = Math.min(...(this.metrics.byService.get(service) ?? []).map((s) => this.distance(s, track.tMin, track.tMax)));
      if (far > 0) {
        this.uncovered++;
        if (far > this.farthest.distance) this.farthest = { distance: far, example: `instance ${this.currentId}, service ${service}` };
      }
      for (const series of this.metrics.byService.get(service) ?? []) {
        const bands = this.bandsOf(series);
        this.metrics.metricNames.forEach((metric, m) => {
          this.variables.add(`${service}:${metric}`);
          const { centers, scale, range } = bands[m] as { centers: Float64Array; scale: number; range: Float64Array | null };
          for (const [t, v, k] of samplesOver(series, m, track.tMin, track.tMax, this.options.align)) {
            const band = range === null ? this.options.band : Math.max(this.options.band, range[k] as number);
            this.inner.state(t, `${service}:${metric}`, excessOverBand(v, centers[k] as number, scale, band));
            this.records++;
          }
        });
      }
    }
  }
}

/** Seconds as a person reads them: s, min, h or days. */
function duration(s: number): string {
  if (!Number.isFinite(s)) return 'infinitely';
  return s < 120 ? `${+s.toPrecision(3)} s` : s < 7200 ? `${+(s / 60).toPrecision(3)} min` : s < 172800 ? `${+(s / 3600).toPrecision(3)} h` : `${+(s / 86400).toPrecision(3)} days`;
}

/**
 * Samples of metric m that describe [tMin, tMax], as [time, value, index].
 * align `end` (default): a sample summarizes the interval since the previous
 * one, ending at its time (a Prometheus rate or average over a scrape
 * interval), so the instance gets every sample from tMin on up to and
 * including the first at or after tMax — a short request gets the one sample
 * whose interval holds it. align `start`: a sample holds from its time on (a
 * gauge read at that moment), so the instance gets the last sample at or
 * before tMin and those up to tMax. Sample times are clipped to [tMin, tMax],
 * so a join never stretches an instance. Missing samples (NaN) are passed over.
 */
export function samplesOver(series: EntitySeries, m: number, tMin: number, tMax: number, align: 'start' | 'end' = 'end'): [number, number, number][] {
  const { times } = series;
  const values = series.values[m] as Float64Array;
  const n = times.length;
  // lo = the first index with times[k] > tMin (start) or ≥ tMin (end).
  const lo = align === 'start' ? firstAbove(times, tMin) : firstAtLeast(times, tMin);
  const out: [number, number, number][] = [];
  const clip = (t: number): number => Math.min(tMax, Math.max(tMin, t));
  if (align === 'start') {
    let before = lo - 1;
    while (before >= 0 && Number.isNaN(values[before])) before--;
    if (before >= 0) out.push([tMin, values[before] as number, before]);
    for (let k = lo; k < n && (times[k] as number) <= tMax; k++) {
      if (!Number.isNaN(values[k])) out.push([times[k] as number, values[k] as number, k]);
    }
    return out;
  }
  for (let k = lo; k < n; k++) {
    const t = times[k] as number;
    if (!Number.isNaN(values[k])) out.push([clip(t), values[k] as number, k]);
    if (t >= tMax && !Number.isNaN(values[k])) break;
  }
  return out;
}

/**
 * For each sample k, the largest |z_j| = |x_j − center_j| / scale over the
 * samples j more than `window` seconds away from it (either side): the
 * entity's own range of deviations elsewhere in the files, an extreme-value
 * band free of any distributional assumption. 0 where there are none (or for
 * scale 0). Two sweeps, O(n).
 */
export function largestElsewhere(times: Float64Array, values: Float64Array, centers: Float64Array, scale: number, window: number): Float64Array {
  const n = times.length;
  const out = new Float64Array(n);
  if (!(scale > 0)) return out;
  const z = (j: number): number => {
    const v = Math.abs(((values[j] as number) - (centers[j] as number)) / scale);
    return Number.isNaN(v) ? 0 : v;
  };
  let j = 0;
  let best = 0;
  for (let k = 0; k < n; k++) {
    while (j < n && (times[j] as number) < (times[k] as number) - window) best = Math.max(best, z(j++));
    out[k] = best;
  }
  j = n - 1;
  best = 0;
  for (let k = n - 1; k >= 0; k--) {
    while (j >= 0 && (times[j] as number) > (times[k] as number) + window) best = Math.max(best, z(j--));
    out[k] = Math.max(out[k] as number, best);
  }
  return out;
}

/**
 * For each sample k, the median of the samples in [times[k] − window, times[k])
 * (the entity's usual level just before it, the sample itself excluded, so a
 * step change stands out); `fallback` where that window holds none, or for
 * window 0.
 */
export function localMedians(times: Float64Array, values: Float64Array, window: number, fallback: number): Float64Array {
  const out = new Float64Array(times.length).fill(fallback);
  if (!(window > 0)) return out;
  // The window's values (NaN left out) kept sorted as it slides: O(window) a sample, nothing copied or selected.
  const sorted = new Float64Array(times.length);
  let size = 0;
  const at = (v: number): number => firstAtLeast(sorted, v, size);
  let from = 0;
  for (let k = 0; k < times.length; k++) {
    const entering = k > 0 ? (values[k - 1] as number) : Number.NaN;
    if (!Number.isNaN(entering)) {
      const i = at(entering);
      sorted.copyWithin(i + 1, i, size++);
      sorted[i] = entering;
    }
    while ((times[from] as number) < (times[k] as number) - window) {
      const leaving = values[from++] as number;
      if (Number.isNaN(leaving)) continue;
      const i = at(leaving);
      sorted.copyWithin(i, i + 1, size--);
    }
    if (size === 0) continue;
    // A zero median is taken by `median` itself, which tells −0 from +0 by the samples' order.
    const m = medianOfSorted(sorted, 0, size);
    out[k] = m !== 0 ? m : median(values.subarray(from, k));
  }
  return out;
}
