import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../fixtures/generate.mjs';
import { recordsByInstance } from './helpers/records.js';
import { run } from './helpers/run.js';

const HEADER = 'TraceID,SpanID,ParentID,PodName,OperationName,StartTimeUnixNano,EndTimeUnixNano,Duration';
const ns = (s: number): string => String(BigInt(Math.round(s * 1e6)) * 1000n);
const row = (trace: string, span: string, parent: string, pod: string, op: string, start: number, end: number): string =>
  `${trace},${span},${parent},${pod},${op},${ns(start)},${ns(end)},${Math.round((end - start) * 1e6)}`;
const FRONTEND = 'frontend-579b9bff58-t2dbm';
const CHECKOUT = 'checkoutservice-578fcf4766-9csqn';
const CART = 'cartservice-579f59597d-wc2lz';
const CURRENCY = 'currencyservice-cf787dd48-vpjrd';

describe('a client span is billed to the service it calls (SPEC §3, Components)', () => {
  it('names its self time `callee:op wait` and its end `callee:op.reply`; a span with its callee missing, by its gRPC method', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-callee-'));
    const t0 = 1_700_000_000;
    writeFileSync(join(dir, 'trace.csv'), [HEADER,
      row('t', 'r', 'root', FRONTEND, 'hipstershop.Frontend/Recv.', t0, t0 + 0.010),
      row('t', 'c', 'r', FRONTEND, 'hipstershop.CartService/GetCart', t0 + 0.001, t0 + 0.005), // client: child s in cartservice
      row('t', 's', 'c', CART, 'hipstershop.CartService/GetCart', t0 + 0.002, t0 + 0.004),
      row('t', 'x', 'r', FRONTEND, 'hipstershop.CurrencyService/Convert', t0 + 0.006, t0 + 0.008), // its server span is missing
      row('u', 'z', 'root', CURRENCY, 'grpc.hipstershop.CurrencyService/Convert', t0, t0 + 0.001), // currencyservice is known
    ].join('\n') + '\n');
    const { byInstance } = await recordsByInstance(dir);
    const recs = byInstance.t!.map((r) => r.replace(/ [\d.e-]+$/, (v) => ` ${Number(Number(v).toFixed(6))}`).split(' ').slice(0, 1).concat(r.split(' ').slice(2)).join(' '));
    expect(recs.filter((r) => r.startsWith('S')).map((r) => r.replace(/ [\d.e-]+$/, ''))).toEqual([
      'S cartservice:hipstershop.CartService/GetCart self',
      'S cartservice:hipstershop.CartService/GetCart wait',
      'S currencyservice:hipstershop.CurrencyService/Convert wait',
      'S frontend:hipstershop.Frontend/Recv. self',
    ]);
    expect(recs.filter((r) => r.startsWith('E'))).toEqual([
      'E frontend:hipstershop.Frontend/Recv..start',
      'E frontend:hipstershop.CartService/GetCart.start',
      'E cartservice:hipstershop.CartService/GetCart.start',
      'E cartservice:hipstershop.CartService/GetCart.end',
      'E cartservice:hipstershop.CartService/GetCart.reply',
      'E frontend:hipstershop.CurrencyService/Convert.start',
      'E currencyservice:hipstershop.CurrencyService/Convert.reply',
      'E frontend:hipstershop.Frontend/Recv..end',
    ]);
  });

  // The planted cause: cartservice's replies leave late (a network delay on its pod), so every call to it, from
  // frontend and from checkoutservice, takes 40 ms longer; cartservice's own server spans are unchanged. The time
  // shows only in the callers' client spans. A herring: frontend's own rendering 3 ms slower in bad.
  // `late`: which replies arrive 40 ms late in bad — 'callee', cartservice's to every caller (a network delay on its
  // pod); 'caller', every reply to frontend (frontend starved of CPU: it reads each reply late, whoever sent it).
  const generate = (callee: boolean, late: 'callee' | 'caller' = 'callee'): string => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-callee-'));
    const rng = mulberry32(11);
    const jitter = (s: number) => s * (0.8 + 0.4 * rng());
    for (const cls of ['good', 'bad'] as const) {
      const lines = [HEADER];
      for (let i = 0; i < 40; i++) {
        const id = `${cls}-${i}`;
        let t = 1_700_000_000 + i;
        const start = t;
        const spans: string[] = [];
        // frontend → cart (client c1, server s1), currency (client c2, server s2), render (own), checkout (client c3 → server s3 → cart: client c4, server s4)
        const call = (client: string, caller: string, server: string, pod: string, op: string, work: number, delayed: boolean): void => {
          const c0 = (t += jitter(0.001));
          const s0 = (t += jitter(0.0005));
          const s1 = (t += jitter(work));
          const slow = late === 'callee' ? delayed : caller === FRONTEND;
          const c1 = (t += jitter(0.0005) + (slow && cls === 'bad' ? 0.040 : 0));
          spans.push(row(id, client, caller === FRONTEND ? 'r' : 's3', caller, op, c0, c1));
          if (callee || i % 2 === 0) spans.push(row(id, server, client, pod, op, s0, s1));
        };
        call('c1', FRONTEND, 's1', CART, 'hipstershop.CartService/GetCart', 0.004, true);
        call('c2', FRONTEND, 's2', CURRENCY, 'hipstershop.CurrencyService/Convert', 0.003, false);
        const r0 = (t += jitter(0.001));
        const r1 = (t += jitter(0.006) + (cls === 'bad' ? 0.003 : 0));
        spans.push(row(id, 'render', 'r', FRONTEND, 'render', r0, r1));
        const k0 = (t += jitter(0.001));
        const k1 = (t += jitter(0.0005));
        call('c4', CHECKOUT, 's4', CART, 'hipstershop.CartService/EmptyCart', 0.003, true);
        const k2 = (t += jitter(0.0005));
        const k3 = (t += jitter(0.0005) + (late === 'caller' && cls === 'bad' ? 0.040 : 0));
        spans.push(row(id, 'c3', 'r', FRONTEND, 'hipstershop.CheckoutService/PlaceOrder', k0, k3));
        spans.push(row(id, 's3', 'c3', CHECKOUT, 'hipstershop.CheckoutService/PlaceOrder', k1, k2));
        const end = (t += jitter(0.001));
        spans.unshift(row(id, 'r', 'root', FRONTEND, 'hipstershop.Frontend/Recv.', start, end));
        lines.push(...spans);
      }
      mkdirSync(join(dir, cls));
      writeFileSync(join(dir, cls, 'trace.csv'), lines.join('\n') + '\n');
    }
    return dir;
  };

  for (const [what, withServerSpans] of [['with the callee\'s server spans', true], ['with the callee\'s server spans in half of the traces only', false]] as const) {
    it(`a callee's network delay, seen only in its callers' client spans, names the callee first (${what})`, async () => {
      const dir = generate(withServerSpans);
      const r = await run(join(dir, 'good'), join(dir, 'bad'), '--quiet', '--json', '-');
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout) as { verdict: { causes: { variable: string }[] } };
      const first = doc.verdict.causes.map((c) => c.variable).find((v) => v !== 'duration');
      expect(first?.split(':')[0]).toBe('cartservice');
    });
  }

  it('a caller that reads every reply late (its CPU starved) is named, not the services it calls', async () => {
    // Frontend's calls to cartservice, currencyservice and checkoutservice all take 40 ms longer; checkoutservice's
    // own call to cartservice does not: the common factor of the slowed calls is their caller (components.ts commonCaller).
    const dir = generate(true, 'caller');
    const r = await run(join(dir, 'good'), join(dir, 'bad'), '--quiet', '--json', '-');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { verdict: { components: { component: string }[]; causes: { variable: string }[] } };
    expect(doc.verdict.components[0]?.component).toBe('frontend');
    // The waits on the calls it placed count as its own (still named for their callee), and so does their time:
    // 3 calls × 40 ms of the ~123 ms added, against its own rendering's 3 ms.
    const first = doc.verdict.components[0] as unknown as { topCauses: number; share: number };
    expect(first.topCauses).toBeGreaterThanOrEqual(3);
    expect(first.share).toBeGreaterThan(0.9);
    expect(doc.verdict.causes.slice(0, first.topCauses + 1).map((c) => c.variable)).toContain('currencyservice:hipstershop.CurrencyService/Convert wait');
  });
});
