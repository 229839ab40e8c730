import { describe, expect, it } from 'vitest';
import { componentOf, rankComponents } from '../src/attention/components.js';
import type { Presence } from '../src/ttest/types.js';

const cause = (variable: string, feature: 'gap' | 'count' | 'first.abs' | 'min' = 'gap', presence: Presence = 'both', kind: 'event' | 'state' = 'event') => ({ variable, kind, feature, presence });

describe('components (src/attention/components.ts)', () => {
  it('the entity before the first `:`, a replica suffix dropped; none without one', () => {
    expect(componentOf('ts-food-service-7c9f8b5d6-x2k4p:CpuUsageRate(%)')).toBe('ts-food-service');
    expect(componentOf('cartservice:hipstershop.CartService/GetCart wait')).toBe('cartservice');
    expect(componentOf('duration')).toBeNull();
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
});
