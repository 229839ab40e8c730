import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs benchmark without type declarations
import { answerServices, candidates, namesRegion, rankedServices, regionEnds, score, sourceSets, summarize } from '../bench/rca.mjs';

// The scoring of bench/rca.mjs (npm run bench:rca), on hand-made JSON reports:
// the figures in bench/README.md are only as right as this.

const fault = { fault: '01', type: 'return', service: 'ts-contacts-service', inner_label: 'c.s.ContactsServiceImpl#31_c.s.ContactsServiceImpl#34' };
const report = (variables: string[], extra: Record<string, unknown> = {}) => ({
  metric: { event: 'duration', state: null },
  ranking: variables.map((variable) => ({ variable, kind: 'event', score: 1, features: [] })),
  ...extra,
});

describe('bench/rca.mjs scoring', () => {
  it('splits inner_label into its two ends, whatever they are', () => {
    expect(regionEnds('c.s.ContactsServiceImpl#31_c.s.ContactsServiceImpl#34')).toEqual(['c.s.ContactsServiceImpl#31', 'c.s.ContactsServiceImpl#34']);
    expect(regionEnds('RouteController.queryByIds start_r.c.RouteController#53')).toEqual(['RouteController.queryByIds start', 'r.c.RouteController#53']);
    expect(regionEnds('CpuUsageRate(%)')).toEqual(['CpuUsageRate(%)']);
  });

  it('leaves out P, by both kinds, and aliases wherever the JSON lists them; each variable once', () => {
    const json = report(['duration', 'Finish', 'a:X#1', 'runtime_sec', 'a:X#1', 'b:Y#2'], { metric: { event: 'duration', state: 'duration', aliases: ['Finish', { variable: 'runtime_sec' }] } });
    expect(candidates(json)).toEqual(['a:X#1', 'b:Y#2']);
    const flagged = { ...report([]), ranking: [{ variable: 'Finish', alias: true }, { variable: 'a:X#1' }] };
    expect(candidates(flagged)).toEqual(['a:X#1']);
  });

  it('takes the verdict\'s causes, in order, where the report has a verdict', () => {
    const json = report(['b:Y#2', 'a:X#1'], { verdict: { causes: [{ variable: 'a:X#1' }, { variable: 'c:Z#3' }], aliases: [{ variable: 'Finish', kind: 'event' }] } });
    expect(candidates(json)).toEqual(['a:X#1', 'c:Z#3']);
  });

  it('measures the source sets a dataset has: with logs, each starting from them; without (OnlineBoutique), traces and traces + metrics', () => {
    expect(sourceSets()).toEqual(['logs', 'logs+traces', 'logs+metrics', 'logs+traces+metrics']);
    expect(sourceSets(['traces', 'metrics'])).toEqual(['traces', 'traces+metrics']);
    expect(rankedServices(['frontend:hipstershop.Frontend/Recv. self', 'cartservice-579f59597d-wc2lz:CpuUsageRate(%)', 'cartservice:hipstershop.CartService/GetCart wait'])).toEqual(['frontend', 'cartservice']);
  });

  it('ranks distinct services in rank order, by pod or service name, passing over names without one', () => {
    expect(rankedServices(['duration2', 'ts-a-service:X#1', 'ts-a-service-5dc8d4f9fd-46997:cpu', 'ts-b-service:ERROR', 'ts-a-service:X#2'])).toEqual(['ts-a-service', 'ts-b-service']);
  });

  it('the answer\'s services: the verdict\'s components first (a common caller named for waits on its callees), then the causes\'', () => {
    const json = { verdict: { causes: [{ variable: 'ads:GetAds wait' }, { variable: 'recs:List wait' }, { variable: 'cart:x' }, { variable: 'email:y' }], components: [{ component: 'frontend' }, { component: 'cart' }] } };
    expect(answerServices(json)).toEqual(['frontend', 'cart', 'ads', 'recs', 'email']);
    expect(answerServices({ verdict: { causes: [{ variable: 'b:x' }, { variable: 'a:y' }] } })).toEqual(['b', 'a']);
  });

  it('a region end counts only in the injected service, and only as the whole Class#line', () => {
    expect(namesRegion('ts-contacts-service:c.s.ContactsServiceImpl#34', fault)).toBe(true);
    expect(namesRegion('ts-contacts-service:c.s.ContactsServiceImpl#341', fault)).toBe(false);
    expect(namesRegion('ts-other-service:c.s.ContactsServiceImpl#31', fault)).toBe(false);
    expect(namesRegion('ts-contacts-service:ERROR', fault)).toBe(false);
  });

  it('scores the k-th distinct service and the k-th distinct variable', () => {
    const json = report(['duration', 'ts-x-service:A#1', 'ts-x-service:A#2', 'ts-y-service:B#1', 'ts-contacts-service:ERROR', 'ts-contacts-service:c.s.ContactsServiceImpl#31']);
    expect(score(json, fault)).toEqual({ serviceRank: 3, regionRank: 5, top3: ['ts-x-service', 'ts-y-service', 'ts-contacts-service'], ranked: 5 });
    expect(score(report([]), fault)).toEqual({ serviceRank: null, regionRank: null, top3: [], ranked: 0 });
  });

  it('summarises shares per fault type and overall; a miss counts in the denominator', () => {
    const rows = [
      { type: 'return', serviceRank: 1, regionRank: null },
      { type: 'return', serviceRank: 4, regionRank: 2 },
      { type: 'exception', serviceRank: null, regionRank: null },
      { type: 'exception', serviceRank: 3, regionRank: 6 },
    ];
    expect(summarize(rows)).toEqual({
      exception: { faults: 2, service: { top1: 0, top3: 0.5, top5: 0.5 }, region: { top1: 0, top3: 0, top5: 0 } },
      return: { faults: 2, service: { top1: 0.5, top3: 0.5, top5: 1 }, region: { top1: 0, top3: 0.5, top5: 0.5 } },
      overall: { faults: 4, service: { top1: 0.25, top3: 0.5, top5: 0.75 }, region: { top1: 0, top3: 0.25, top5: 0.25 } },
    });
    expect(Object.keys(summarize([...rows, { type: 'network_delay', serviceRank: 1, regionRank: 1 }, { type: 'disk_full', serviceRank: 1, regionRank: 1 }])))
      .toEqual(['exception', 'return', 'network_delay', 'disk_full', 'overall']);
  });
});
