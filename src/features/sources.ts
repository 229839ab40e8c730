/**
 * Where a variable came from: a log line (through a translator or the miner),
 * a span (src/parse/spans.ts), or a resource metric joined to the instance
 * (metric-join.ts). The tests use it to keep families of tests apart
 * (src/ttest/inflation.ts): the timings of every span differ between two
 * minutes together, metric excesses are nearly all 0, and log lines do
 * neither, so one family's λ must not be read off another's.
 */
import type { FeatureSet, LogKind, VariableSource } from './types.js';

/** The key of a variable in `FeatureSet.sources`. */
export function sourceKey(kind: LogKind, variable: string): string {
  return `${kind}\u0000${variable}`;
}

/** The source of a variable of `fs` (`log` unless recorded otherwise). */
export function sourceOf(fs: Pick<FeatureSet, 'sources'>, kind: LogKind, variable: string): VariableSource {
  return fs.sources?.get(sourceKey(kind, variable)) ?? 'log';
}

/**
 * The variables that are not log lines, by their key: the events the span
 * reader said were a span's (RecordSink.eventFromSpans: a span's `X.start`
 * and `X.end`, a client span's `callee:op.reply` and its caller's
 * `caller:op.start`; src/parse/spans.ts), the state of each such span (`X
 * self` beside its `X.end`, `callee:op wait` beside its `callee:op.reply`),
 * and the metric states the join emitted (`joined`). A translator's
 * variables are log lines whatever their names: the reader's marks decide,
 * not the names (a log named `job.start`, `job.end`, `job self` is a log's).
 */
export function variableSources(states: readonly string[], spanEvents: ReadonlySet<string>, joined: ReadonlySet<string> = new Set()): Map<string, VariableSource> {
  const out = new Map<string, VariableSource>();
  for (const event of spanEvents) out.set(sourceKey('event', event), 'span');
  for (const state of states) {
    if (joined.has(state)) out.set(sourceKey('state', state), 'metric');
    else if (state.endsWith(' self') ? spanEvents.has(`${state.slice(0, -' self'.length)}.end`) : state.endsWith(' wait') && spanEvents.has(`${state.slice(0, -' wait'.length)}.reply`)) {
      out.set(sourceKey('state', state), 'span');
    }
  }
  return out;
}
