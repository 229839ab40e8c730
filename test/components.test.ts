import { describe, expect, it } from 'vitest';
import { callGraph, commonCaller, componentOf, fellInSlowdown, instancesOfOneComponent, rankComponents, timeGrowth } from '../src/attention/components.js';
import { sourceKey } from '../src/features/sources.js';
import type { FeatureTable, Instance } from '../src/features/types.js';
import type { Presence } from '../src/ttest/types.js';

const cause = (variable: string, feature: 'gap' | 'count' | 'first.abs' | 'min' | 'max' = 'gap', presence: Presence = 'both', kind: 'event' | 'state' = 'event', meanGood = 1, meanBad = 2) =>
  ({ variable, kind, feature, presence, meanGood, meanBad });

describe('components (src/attention/components.ts)', () => {
  it('the entity before the first `:`, a replica suffix dropped; none without one', () => {
    expect(componentOf('ts-food-service-7c9f8b5d6-x2k4p:CpuUsageRate(%)')).toBe('ts-food-service');
    expect(componentOf('cartservice:hipstershop.CartService/GetCart wait')).toBe('cartservice');
    expect(componentOf('duration')).toBeNull();
    // A colon beside a blank is a message's own (a mined template with no entity), not an entity's.
    expect(componentOf('duration: <*> ms statement: SELECT * FROM carts WHERE id = <*>')).toBeNull();
    expect(componentOf('-- : [<*>] Completed <*> OK in <*>')).toBeNull();
    expect(componentOf('payment:charge ok in <*> ms')).toBe('payment');
  });

  it('ranks by causes that locate among the first five, then by first position; the causes follow', () => {
    const { components, causes } = rankComponents([
      cause('a:herring'), cause('b:x'), cause('b:y', 'first.abs'), cause('c:u'), cause('c:v'), cause('Start'), cause('b:z'),
    ], null, 0);
    expect(components.map((c) => [c.component, c.topCauses, c.causes])).toEqual([['c', 2, 2], ['a', 1, 1], ['b', 1, 3]]);
    expect(causes.map((c) => c.variable)).toEqual(['c:u', 'c:v', 'a:herring', 'b:x', 'b:y', 'b:z', 'Start']);
  });

  it('a component with a line new in bad or vanished among the first five ranks above more changes in degree', () => {
    const { components } = rankComponents([cause('basic:wait#89'), cause('basic:gap#438'), cause('price:Controller#46', 'count', 'vanished'), cause('seat:x')], null, 0);
    expect(components[0]!.component).toBe('price');
  });

  it('the added time: Σ of its events\' change in wait, over the slowdown', () => {
    const { components } = rankComponents([cause('a:x'), cause('b:y')], [{ event: 'a:x', difference: 0.3 }, { event: 'a:w', difference: 0.1 }, { event: 'b:y', difference: 0.1 }], 0.5);
    expect(components.map((c) => [c.component, c.addedTime, c.share])).toEqual([['a', 0.4, 0.8], ['b', 0.1, 0.2]]);
  });

  it('instances of one component each (pods, hosts: no request id) are told from instances that span several', () => {
    // Four instances: two gateway pods, a payment pod (its line a state only), and one that logged nothing named.
    const instances = Array.from({ length: 4 }, (_, i) => ({ id: `i${i}` }) as Instance);
    const count: FeatureTable = { kind: 'event', feature: 'count', variables: ['gateway:request done', 'duration', 'gateway:request received'],
      columns: [Float64Array.of(3, 2, 0, 0), Float64Array.of(1, 1, 1, 1), Float64Array.of(3, 2, 0, 0)] };
    const mean = (payment: number[]): FeatureTable => ({ kind: 'state', feature: 'mean', variables: ['payment:charge ok in <*> ms #1'], columns: [Float64Array.from(payment)] });
    expect(instancesOfOneComponent({ instances, tables: [count, mean([NaN, NaN, 25, NaN])] })).toBe(true);
    // A request's lines span services: the first instance holds a payment line too.
    expect(instancesOfOneComponent({ instances, tables: [count, mean([24, NaN, 25, NaN])] })).toBe(false);
    // One component in all: nothing to rank apart.
    expect(instancesOfOneComponent({ instances, tables: [count] })).toBe(false);
  });

  it('time growth: the largest bad/good factor of a location that grew from a positive mean, per component', () => {
    const growth = timeGrowth([
      cause('payment:charge ok in <*> ms #1', 'min', 'both', 'state', 20, 200), cause('payment:charge ok in <*> ms #1', 'max', 'both', 'state', 29, 288),
      cause('gateway:request done', 'gap', 'both', 'event', 0.04, 0.3), cause('gateway:request done status=<*> in <*> ms #2', 'max', 'both', 'state', 44, 302),
      // Not locations of a time, shrinking, or from a mean of 0: no factor.
      cause('checkout:order placed', 'count', 'both', 'event', 1, 30), cause('checkout:x #1', 'min', 'both', 'state', 9, 2), cause('checkout:y #1', 'max', 'both', 'state', 0, 5),
    ]);
    expect([...growth]).toEqual([['payment', 10], ['gateway', 7.5]]);
  });

  it('where instances hold one component each, the component whose times grew most ranks first, however many lines its callers write', () => {
    // The caller's wait on the slow callee is its logged latency, the gap that closes the call and the gap.after that opens it.
    const list = [cause('gateway:done #2', 'max', 'both', 'state'), cause('gateway:done'), cause('gateway:received'), cause('payment:charge #1', 'min', 'both', 'state')];
    expect(rankComponents(list, null, 0).components.map((c) => c.component)).toEqual(['gateway', 'payment']);
    const { components, causes } = rankComponents(list, null, 0, new Map(), new Map([['gateway', 8.6], ['payment', 10.1]]));
    expect(components.map((c) => [c.component, c.topCauses, c.growth])).toEqual([['payment', 1, 10.1], ['gateway', 3, 8.6]]);
    expect(causes[0]!.variable).toBe('payment:charge #1');
    // A change in kind still comes first.
    const kinds = rankComponents([...list, cause('checkout:ERROR', 'count', 'new')], null, 0, new Map(), new Map([['gateway', 8.6], ['payment', 10.1]]));
    expect(kinds.components.map((c) => c.component)).toEqual(['checkout', 'payment', 'gateway']);
  });

  it('a time the bad class spent less of is no cause of its slowdown: waits and span times that fell, not counts or positions', () => {
    const fs = { sources: new Map([[sourceKey('state', 'db:SELECT self'), 'span' as const]]) };
    expect(fellInSlowdown(fs, cause('db:SELECT self', 'min', 'both', 'state', 0.0025, 0.0005), 0.2)).toBe(true);
    expect(fellInSlowdown(fs, cause('pay:HTTP POST.reply', 'gap', 'both', 'event', 0.031, 0.0005), 0.2)).toBe(true);
    // Not in a run that got faster, nor a time that grew, nor a count, a position or a state that is not a span's time.
    expect(fellInSlowdown(fs, cause('db:SELECT self', 'min', 'both', 'state', 0.0025, 0.0005), -0.2)).toBe(false);
    expect(fellInSlowdown(fs, cause('pay:HTTP POST.reply', 'gap', 'both', 'event', 0.0005, 0.031), 0.2)).toBe(false);
    expect(fellInSlowdown(fs, cause('pay:ERROR', 'count', 'vanished', 'event', 1, 0), 0.2)).toBe(false);
    expect(fellInSlowdown(fs, cause('pay:x', 'first.abs', 'both', 'event', 0.3, 0.1), 0.2)).toBe(false);
    expect(fellInSlowdown(fs, cause('app:queue', 'min', 'both', 'state', 9, 2), 0.2)).toBe(false);
  });

  // A call graph as the span reader names it: frontend calls ads, recs and cart; checkout calls cart; each call's
  // client span starts under its caller's name and ends as the callee's `.reply` (src/parse/spans.ts).
  const graph = () => {
    const events = [
      'frontend:Ads/Get.start', 'ads:Ads/Get.start', 'ads:Ads/Get.end', 'ads:Ads/Get.reply',
      'frontend:Recs/List.start', 'recs:Recs/List.reply',
      'frontend:Cart/Get.start', 'checkout:Cart/Get.start', 'cart:Cart/Get.reply',
      'frontend:render.start', 'frontend:render.end',
    ];
    const table: FeatureTable = { kind: 'event', feature: 'gap', variables: events, columns: events.map(() => new Float64Array(0)) };
    const sources = new Map(events.map((e) => [sourceKey('event', e), 'span' as const]));
    return callGraph({ tables: [table], sources });
  };

  it('the call graph: each call\'s callers, every other service that starts a span of its operation', () => {
    expect([...graph()].map(([call, callers]) => [call, [...callers]])).toEqual([
      ['ads:Ads/Get', ['frontend']], ['recs:Recs/List', ['frontend']], ['cart:Cart/Get', ['frontend', 'checkout']],
    ]);
  });

  it('a caller whose calls to most services it calls got slower is their common cause; a callee slow to all its callers is its own', () => {
    const calls = graph();
    // frontend starved: its waits on ads and recs grew (2 of its 3 callees); a herring in cart's own work.
    const starved = [cause('ads:Ads/Get wait', 'max', 'both', 'state'), cause('cart:work', 'gap'), cause('recs:Recs/List.reply', 'gap')];
    expect(commonCaller(starved, calls)).toEqual({ caller: 'frontend', callees: new Set(['ads', 'recs']) });
    const ranked = rankComponents(starved, null, 0, calls);
    expect(ranked.components.map((c) => [c.component, c.topCauses])).toEqual([['frontend', 2], ['cart', 1]]);
    expect(ranked.causes.map((c) => c.variable)).toEqual(['ads:Ads/Get wait', 'recs:Recs/List.reply', 'cart:work']);
    // cart slow: the calls to it grew, from both callers (one call, 1 of frontend's 3 callees): cart, the callee, is named.
    const slowCart = [cause('cart:Cart/Get wait', 'max', 'both', 'state'), cause('cart:Cart/Get.reply', 'gap'), cause('ads:work', 'gap')];
    expect(commonCaller(slowCart, calls)).toBeNull();
    expect(rankComponents(slowCart, null, 0, calls).components[0]!.component).toBe('cart');
    // Waits that fell are no slowed calls.
    expect(commonCaller([cause('ads:Ads/Get wait', 'max', 'both', 'state', 2, 1), cause('recs:Recs/List.reply', 'gap', 'both', 'event', 2, 1)], calls)).toBeNull();
  });
});
