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
 * The variables that are not log lines, by their key: a span's three
 * variables (the events `X.start` and `X.end` and the state `X self`, as the
 * span reader names them; all three must exist, which a translator's names
 * do not by accident), a client span's (the state `callee:op wait` with
 * the event `callee:op.reply`, and its caller's `caller:op.start` of the same
 * operation: src/parse/spans.ts), and the metric states the join emitted
 * (`joined`).
 */
export function variableSources(events: readonly string[], states: readonly string[], joined: ReadonlySet<string> = new Set()): Map<string, VariableSource> {
  const out = new Map<string, VariableSource>();
  const eventSet = new Set(events);
  const replyOps = new Set<string>();
  for (const state of states) {
    if (joined.has(state)) {
      out.set(sourceKey('state', state), 'metric');
      continue;
    }
    if (state.endsWith(' wait')) {
      // A client span billed to its callee: `callee:op wait` and `callee:op.reply` (its start is its caller's `.start`).
      const call = state.slice(0, -' wait'.length);
      if (!eventSet.has(`${call}.reply`)) continue;
      out.set(sourceKey('state', state), 'span');
      out.set(sourceKey('event', `${call}.reply`), 'span');
      if (call.indexOf(':') > 0) replyOps.add(call.slice(call.indexOf(':') + 1));
      continue;
    }
    if (!state.endsWith(' self')) continue;
    const span = state.slice(0, -' self'.length);
    if (!eventSet.has(`${span}.start`) || !eventSet.has(`${span}.end`)) continue;
    out.set(sourceKey('state', state), 'span');
    out.set(sourceKey('event', `${span}.start`), 'span');
    out.set(sourceKey('event', `${span}.end`), 'span');
  }
  // A client span's start (`caller:op.start`, its caller's name) where no span of that name ends in the caller.
  for (const event of events) {
    if (!event.endsWith('.start') || out.has(sourceKey('event', event))) continue;
    const colon = event.indexOf(':');
    if (colon > 0 && replyOps.has(event.slice(colon + 1, -'.start'.length))) out.set(sourceKey('event', event), 'span');
  }
  return out;
}
