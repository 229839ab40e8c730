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
import { isTimeFeature, type LogKind } from '../features/types.js';
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
}

/** The component a variable names, or null for a name without an entity (`duration`, `Start`). */
export function componentOf(variable: string): string | null {
  const i = variable.indexOf(':');
  return i <= 0 ? null : serviceOfPod(variable.slice(0, i));
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
 * events) and `slowdown` the change in the mean event span.
 * Returns the ranked components and the causes reordered to follow them:
 * each component's causes together, in their own order.
 */
export function rankComponents<C extends { readonly variable: string; readonly kind: LogKind; readonly feature: TestedFeature; readonly presence: Presence }>(
  significant: readonly C[],
  waits: readonly { readonly event: string; readonly difference: number }[] | null,
  slowdown: number,
): { components: ComponentSummary[]; causes: C[] } {
  // A cause without an entity is a group of its own: it keeps its place among the components, and is not reported as one.
  const keyOf = (variable: string): string => componentOf(variable) ?? `\u0000${variable}`;
  const groups = new Map<string, { first: number; top: number; changeInKind: boolean; causes: C[] }>();
  significant.forEach((c, i) => {
    const key = keyOf(c.variable);
    let g = groups.get(key);
    if (g === undefined) groups.set(key, (g = { first: i, top: 0, changeInKind: false, causes: [] }));
    g.causes.push(c);
    if (i < TOP_CAUSES && locates(c)) g.top++;
    if (i < TOP_CAUSES && c.presence !== 'both') g.changeInKind = true;
  });
  const added = new Map<string, number>();
  for (const w of waits ?? []) {
    const key = componentOf(w.event);
    if (key !== null && !Number.isNaN(w.difference)) added.set(key, (added.get(key) ?? 0) + w.difference);
  }
  const ranked = [...groups].sort(([, x], [, y]) => Number(y.changeInKind) - Number(x.changeInKind) || y.top - x.top || x.first - y.first);
  const components = ranked
    .filter(([key]) => !key.startsWith('\u0000'))
    .map(([key, g]): ComponentSummary => {
      const addedTime = waits === null ? null : (added.get(key) ?? 0);
      return {
        component: key, topCauses: g.top, causes: g.causes.length, addedTime,
        share: addedTime !== null && slowdown > 0 ? addedTime / slowdown : null,
        topCause: (g.causes[0] as C).variable,
      };
    });
  return { components, causes: ranked.flatMap(([, g]) => g.causes) };
}
