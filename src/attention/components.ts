/**
 * Components (SPEC §3, Components; docs/components.md): the service, pod,
 * host or node a variable is about — the entity before the first `:` of its
 * name (`cartservice:hipstershop.CartService/GetCart wait`, a log line's
 * `ts-food-service:c.s.FoodServiceImpl#52`, a metric's `frontend-579b9bff58-t2dbm:CpuUsageRate(%)`),
 * a Deployment's replica suffix dropped so that a pod's metrics and its
 * service's spans and lines are one component. The verdict ranks components
 * as well as variables: a service where everything is a little slower
 * (several of the top causes) ranks above one with a single divergent herring.
 */
import { sourceOf } from '../features/sources.js';
import { isTimeFeature, type FeatureSet, type FeatureType, type LogKind } from '../features/types.js';
import { serviceOfPod } from '../parse/spans.js';
import type { Presence, TestedFeature } from '../ttest/types.js';

/** How many of the verdict's first significant causes a component is counted in: the five a reader sees (the top cause and the next four). */
export const TOP_CAUSES = 5;

export interface ComponentSummary {
  readonly component: string;
  /** Its causes that locate (not an event's time position only) among the verdict's first TOP_CAUSES significant causes (the ranking key). */
  readonly topCauses: number;
  /** Its significant causes in all. */
  readonly causes: number;
  /**
   * Σ over its events of the change in mean `wait` (SPEC §2: the waits of an
   * instance sum to its event span), in seconds, and that as a share of the
   * mean slowdown; null without event variables or without a slowdown.
   */
  readonly addedTime: number | null;
  readonly share: number | null;
  /** Its first cause in the verdict's order. */
  readonly topCause: string;
  /**
   * Where every instance holds one component's lines (instancesOfOneComponent): the largest factor by which a time of
   * its causes grew (timeGrowth), the ranking key after a change in kind; absent otherwise.
   */
  readonly growth?: number;
}

/**
 * The calls among the spans (src/parse/spans.ts): per call `callee:operation`
 * (a client span billed to its callee: the event `callee:operation.reply`),
 * the services that place it — every other service with a span event
 * `service:operation.start` (a client span's start keeps its caller's name).
 * Read off the variables' names: a gRPC method names one call exactly; a
 * generic operation (`HTTP POST`) is placed by every service that makes one,
 * so its callers are over-counted (a known limit: the rule below then needs
 * more of them to agree).
 */
export type CallGraph = ReadonlyMap<string, ReadonlySet<string>>;

export function callGraph(fs: Pick<FeatureSet, 'tables' | 'sources'>): CallGraph {
  const events = fs.tables.find((t) => t.kind === 'event')?.variables ?? [];
  const starts = new Map<string, string[]>();
  for (const e of events) {
    if (!e.endsWith('.start') || sourceOf(fs, 'event', e) !== 'span') continue;
    const colon = e.indexOf(':');
    if (colon <= 0) continue;
    const op = e.slice(colon + 1, -'.start'.length);
    (starts.get(op) ?? starts.set(op, []).get(op)!).push(serviceOfPod(e.slice(0, colon)));
  }
  const calls = new Map<string, Set<string>>();
  for (const e of events) {
    if (!e.endsWith('.reply') || sourceOf(fs, 'event', e) !== 'span') continue;
    const call = e.slice(0, -'.reply'.length);
    const callee = componentOf(call);
    if (callee === null) continue;
    calls.set(call, new Set((starts.get(call.slice(call.indexOf(':') + 1)) ?? []).filter((s) => s !== callee)));
  }
  return calls;
}

/** The call (`callee:operation`) a cause measures the wait of — a call's `wait` state or `.reply` event — or null. */
function callOf(c: { readonly variable: string; readonly kind: LogKind }, calls: CallGraph): string | null {
  const suffix = c.kind === 'state' ? ' wait' : '.reply';
  if (!c.variable.endsWith(suffix)) return null;
  const call = c.variable.slice(0, -suffix.length);
  return calls.has(call) ? call : null;
}

/**
 * The caller common to the slowed calls, if there is one: the service whose
 * calls got slower to at least two services and to more than half of the
 * services it calls, the one with the most such callees (ties: none). A
 * caller whose own processing slowed (CPU starved) makes every call it places
 * slower, whichever service answers; a slow callee slows the calls to it
 * alone. Slowed: a significant cause on a call's wait that locates and grew
 * (SPEC §3, Components: a component common to all the slowed calls).
 */
export function commonCaller<C extends { readonly variable: string; readonly kind: LogKind; readonly feature: TestedFeature; readonly meanGood: number; readonly meanBad: number }>(
  significant: readonly C[],
  calls: CallGraph,
): { caller: string; callees: ReadonlySet<string> } | null {
  const slowed = new Set<string>();
  for (const c of significant) {
    const call = callOf(c, calls);
    if (call !== null && locates(c) && c.meanBad > c.meanGood) slowed.add(call);
  }
  if (slowed.size < 2) return null;
  const callees = new Map<string, Set<string>>();
  const slowedCallees = new Map<string, Set<string>>();
  for (const [call, callers] of calls) {
    const callee = componentOf(call) as string;
    for (const caller of callers) {
      (callees.get(caller) ?? callees.set(caller, new Set()).get(caller)!).add(callee);
      if (slowed.has(call)) (slowedCallees.get(caller) ?? slowedCallees.set(caller, new Set()).get(caller)!).add(callee);
    }
  }
  let best: { caller: string; callees: Set<string> } | null = null;
  let tie = false;
  for (const [caller, set] of slowedCallees) {
    if (set.size < 2 || 2 * set.size <= (callees.get(caller)?.size ?? 0)) continue;
    if (best === null || set.size > best.callees.size) {
      best = { caller, callees: set };
      tie = false;
    } else if (set.size === best.callees.size) {
      tie = true;
    }
  }
  return tie ? null : best;
}

/**
 * The component a variable names, or null for a name without an entity (`duration`, `Start`). The entity is
 * glued to its colon and to the name after it (`payment:charge ok`, `frontend:GetCart.start`); a colon and a
 * blank are a message's own words (PostgreSQL's `duration: <*> ms`, Ruby's `-- : …`), naming no component.
 */
export function componentOf(variable: string): string | null {
  const i = variable.indexOf(':');
  return i <= 0 || variable.charCodeAt(i + 1) === 32 || variable.charCodeAt(i - 1) === 32 ? null : serviceOfPod(variable.slice(0, i));
}

/**
 * Whether a difference is time the bad class spent *less* of where it is the
 * slower one: a wait (an event's `gap`, `gap.after`, `wait`) or a span's time
 * (any feature of a span's self time or of a call's wait, src/parse/spans.ts)
 * whose bad mean is below its good mean, while P's mean grew (`slowdown` > 0).
 * Time not spent cannot be what made the bad runs slower; between two minutes
 * of a busy system many waits shrink with the load (a query's self time
 * 2.5 → 0.5 ms, a reply's wait 31 → 0.5 ms), and listed first they hide the
 * line that changed. Such a cause is listed after the others, as a negligible
 * time is (verdict.ts). Counts, occurrences, time positions and other states
 * are not times spent.
 */
export function fellInSlowdown(
  fs: Pick<FeatureSet, 'sources'>,
  c: { readonly variable: string; readonly kind: LogKind; readonly feature: TestedFeature; readonly meanGood: number; readonly meanBad: number },
  slowdown: number,
): boolean {
  if (!(slowdown > 0) || !(c.meanBad < c.meanGood)) return false;
  if (c.kind === 'state') return sourceOf(fs, 'state', c.variable) === 'span';
  return c.feature === 'gap' || c.feature === 'gap.after' || c.feature === 'wait';
}

/**
 * Whether a cause locates (SPEC §5, locatesCause): any feature but an event's
 * position in time, which every delay shifts alike. A variable listed for its
 * time position only (it had nothing else) is a symptom, not a place.
 */
function locates(c: { readonly kind: LogKind; readonly feature: TestedFeature }): boolean {
  return c.feature === 'occurrence' || !isTimeFeature(c.kind, c.feature);
}

/**
 * Whether every instance holds the lines of one component only, while the variables name at least two: instances
 * by source (a pod, host or container: no request id, docs/input.md), each with its own timeline. A caller's wait
 * on a call then lies inside its own lines' gaps and its own logged latency, with none of the callee's lines
 * between them, so the waits cannot be billed to the callee as a request's timeline bills them (SPEC §3,
 * Components). Read off the event `count` (> 0) and the state `mean` (present) of each instance's variables.
 */
export function instancesOfOneComponent(fs: Pick<FeatureSet, 'tables' | 'instances'>): boolean {
  const tables = fs.tables.filter((t) => (t.kind === 'event' && t.feature === 'count') || (t.kind === 'state' && t.feature === 'mean'));
  const columns: { component: string; column: Float64Array; count: boolean }[] = [];
  for (const t of tables) {
    t.variables.forEach((variable, v) => {
      const component = componentOf(variable);
      if (component !== null) columns.push({ component, column: t.columns[v] as Float64Array, count: t.kind === 'event' });
    });
  }
  if (new Set(columns.map((c) => c.component)).size < 2) return false;
  for (let i = 0; i < fs.instances.length; i++) {
    let own: string | null = null;
    for (const { component, column, count } of columns) {
      const x = column[i] as number;
      if (count ? !(x > 0) : Number.isNaN(x)) continue;
      if (own === null) own = component;
      else if (own !== component) return false;
    }
  }
  return true;
}

/**
 * Features that locate a time's distribution: each moves by Δ when every value does, and is no smaller for a time
 * that contains another (a state's min, mean, max, final and values at a quarter, half and three quarters; an
 * event's gap and gap.after). timeGrowth compares them.
 */
const LOCATIONS: ReadonlySet<string> = new Set<FeatureType>(['min', 'mean', 'max', 'final', 'q1.abs', 'half.abs', 'q3.abs', 'q1.rel', 'half.rel', 'q3.rel', 'gap', 'gap.after']);

/**
 * Per component, the largest factor meanBad / meanGood over `tests` (the significant tests of its causes) on a
 * location (LOCATIONS) that grew from a positive good mean. Why it ranks components where instances hold one
 * component each (instancesOfOneComponent): a caller's time C contains its callee's time c (C = c + s, s ≥ 0, its
 * own work), so the Δ a slow callee adds to both is a smaller factor of the caller's, (C + Δ)/C ≤ (c + Δ)/c, for
 * every location alike; the callee grows by the largest factor and the callers that only waited by less, however
 * many lines each writes around the call. A factor needs no unit (a latency logged in ms, a gap in seconds). A
 * caller whose own work slowed grows alone. Limit: a state that is no time (a size, a queue) is compared as one.
 */
export function timeGrowth(tests: readonly { readonly variable: string; readonly feature: TestedFeature; readonly meanGood: number; readonly meanBad: number }[]): Map<string, number> {
  const growth = new Map<string, number>();
  for (const t of tests) {
    if (!LOCATIONS.has(t.feature) || !(t.meanGood > 0) || !(t.meanBad > t.meanGood)) continue;
    const key = componentOf(t.variable) ?? `\u0000${t.variable}`;
    const factor = t.meanBad / t.meanGood;
    if (!(factor <= (growth.get(key) ?? 0))) growth.set(key, factor);
  }
  return growth;
}

/**
 * Components of the significant causes (in the verdict's order), ranked
 * first by whether one of their causes among the first TOP_CAUSES is an event
 * new in bad or vanished from it (a change in kind, as the verdict already
 * lists such a line first among divergences of like strength: a vanished
 * step outranks two slower timings elsewhere), then by their number of causes
 * that locate (locates) among the first TOP_CAUSES,
 * then by the position of their first cause (so, outside the first
 * TOP_CAUSES, in the order of the variables). The added time is reported, not
 * ranked by: an event's wait is billed to the event after it, which for the
 * reply of a call in logs is the caller's next line (fixtures/causes/delayed-callee). `waits` is each event's change in mean wait (absent without
 * events) and `slowdown` the change in the mean event span. With `growth` (timeGrowth, where every instance holds
 * one component's lines), components are ranked by it after a change in kind, before their number of causes: a
 * caller's lines around a call count its wait several times (its logged latency, the gap that closes the call, the
 * gap.after that opens it), its callee's single line once.
 * Returns the ranked components and the causes reordered to follow them:
 * each component's causes together, in their own order.
 */
export function rankComponents<C extends { readonly variable: string; readonly kind: LogKind; readonly feature: TestedFeature; readonly presence: Presence; readonly meanGood: number; readonly meanBad: number }>(
  significant: readonly C[],
  waits: readonly { readonly event: string; readonly difference: number }[] | null,
  slowdown: number,
  calls: CallGraph = new Map(),
  growth: ReadonlyMap<string, number> | null = null,
): { components: ComponentSummary[]; causes: C[] } {
  // A cause without an entity is a group of its own: it keeps its place among the components, and is not reported as one.
  const keyOf = (variable: string): string => componentOf(variable) ?? `\u0000${variable}`;
  // The waits on calls that a common caller placed are its own (commonCaller); the rest are their callee's.
  const common = commonCaller(significant, calls);
  const placedBy = (c: { readonly variable: string; readonly kind: LogKind }): string | null => {
    if (common === null) return null;
    const call = callOf(c, calls);
    return call !== null && calls.get(call)?.has(common.caller) === true && common.callees.has(componentOf(call) as string) ? common.caller : null;
  };
  const groups = new Map<string, { first: number; top: number; changeInKind: boolean; causes: C[] }>();
  significant.forEach((c, i) => {
    const key = placedBy(c) ?? keyOf(c.variable);
    let g = groups.get(key);
    if (g === undefined) groups.set(key, (g = { first: i, top: 0, changeInKind: false, causes: [] }));
    g.causes.push(c);
    if (i < TOP_CAUSES && locates(c)) g.top++;
    if (i < TOP_CAUSES && c.presence !== 'both') g.changeInKind = true;
  });
  const added = new Map<string, number>();
  for (const w of waits ?? []) {
    const key = placedBy({ variable: w.event, kind: 'event' }) ?? componentOf(w.event);
    if (key !== null && !Number.isNaN(w.difference)) added.set(key, (added.get(key) ?? 0) + w.difference);
  }
  const grew = (key: string): number => growth?.get(key) ?? 0;
  const ranked = [...groups].sort(([kx, x], [ky, y]) => Number(y.changeInKind) - Number(x.changeInKind) || grew(ky) - grew(kx) || y.top - x.top || x.first - y.first);
  const components = ranked
    .filter(([key]) => !key.startsWith('\u0000'))
    .map(([key, g]): ComponentSummary => {
      const addedTime = waits === null ? null : (added.get(key) ?? 0);
      return {
        component: key, topCauses: g.top, causes: g.causes.length, addedTime,
        share: addedTime !== null && slowdown > 0 ? addedTime / slowdown : null,
        topCause: (g.causes[0] as C).variable,
        ...(growth === null ? {} : { growth: grew(key) }),
      };
    });
  return { components, causes: ranked.flatMap(([, g]) => g.causes) };
}
