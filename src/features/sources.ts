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
 * do not by accident), and the metric states the join emitted (`joined`).
 */
export function variableSources(events: readonly string[], states: readonly string[], joined: ReadonlySet<string> = new Set()): Map<string, VariableSource> {
  const out = new Map<string, VariableSource>();
  const eventSet = new Set(events);
  for (const state of states) {
    if (joined.has(state)) {
      out.set(sourceKey('state', state), 'metric');
      continue;
    }
    if (!state.endsWith(' self')) continue;
    const span = state.slice(0, -' self'.length);
    if (!eventSet.has(`${span}.start`) || !eventSet.has(`${span}.end`)) continue;
    out.set(sourceKey('state', state), 'span');
    out.set(sourceKey('event', `${span}.start`), 'span');
    out.set(sourceKey('event', `${span}.end`), 'span');
  }
  return out;
}
