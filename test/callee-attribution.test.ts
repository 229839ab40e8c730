import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordsByInstance } from './helpers/records.js';

const HEADER = 'TraceID,SpanID,ParentID,PodName,OperationName,StartTimeUnixNano,EndTimeUnixNano,Duration';
const ns = (s: number): string => String(BigInt(Math.round(s * 1e6)) * 1000n);
const row = (trace: string, span: string, parent: string, pod: string, op: string, start: number, end: number): string =>
  `${trace},${span},${parent},${pod},${op},${ns(start)},${ns(end)},${Math.round((end - start) * 1e6)}`;
const FRONTEND = 'frontend-579b9bff58-t2dbm';
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
});
