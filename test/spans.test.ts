import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../fixtures/generate.mjs';
import { serviceOfPod } from '../src/parse/spans.js';
import { recordsByInstance } from './helpers/records.js';
import { run } from './helpers/run.js';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'distalyze-spans-'));
const HEADER = 'TraceID,SpanID,ParentID,PodName,OperationName,StartTimeUnixNano,EndTimeUnixNano,Duration';
/** Seconds → integer nanoseconds as text (epoch 1.7e9 s, so values stay exact to the µs). */
const ns = (s: number): string => String(BigInt(Math.round(s * 1e6)) * 1000n);
const row = (trace: string, span: string, parent: string, pod: string, op: string, start: number, end: number): string =>
  `${trace},${span},${parent},${pod},${op},${ns(start)},${ns(end)},${Math.round((end - start) * 1e6)}`;

describe('span files: detection and records', () => {
  it('reads the dataset CSV shape: one instance per trace, kind = root operation, start/end events, self time', async () => {
    const dir = tmp();
    // root [0, 10] ms with children a [1, 4] and b [3, 8] (overlapping): self = 10 − |[1, 8]| = 3 ms.
    const t0 = 1_700_000_000;
    writeFileSync(join(dir, 'trace.csv'), [HEADER,
      row('t1', 'r', 'root', 'ts-gateway-service-6f6cfc45b-h5m2n', '/api', t0, t0 + 0.010),
      row('t1', 'a', 'r', 'ts-basic-service-5dc8d4f9fd-46997', 'query', t0 + 0.001, t0 + 0.004),
      row('t1', 'b', 'r', 'ts-basic-service-5dc8d4f9fd-46997', 'save', t0 + 0.003, t0 + 0.008),
    ].join('\n') + '\n');
    const { byInstance } = await recordsByInstance(dir);
    expect(Object.keys(byInstance)).toEqual(['t1']);
    const recs = byInstance.t1!.map((r) => r.replace(/ [\d.e-]+$/, (v) => ` ${Number(Number(v).toFixed(6))}`));
    expect(recs.filter((r) => r.startsWith('S')).map((r) => r.split(' ').slice(2).join(' '))).toEqual([
      'ts-basic-service:query self 0.003',
      'ts-basic-service:save self 0.005',
      'ts-gateway-service:/api self 0.003',
    ]);
    expect(recs.filter((r) => r.startsWith('E')).map((r) => r.split(' ')[2])).toEqual([
      'ts-gateway-service:/api.start', 'ts-basic-service:query.start', 'ts-basic-service:save.start',
      'ts-basic-service:query.end', 'ts-basic-service:save.end', 'ts-gateway-service:/api.end',
    ]);
  });

  it('reads OTLP/JSON as the collector file exporter writes it (one request per line), gzip too', async () => {
    const dir = tmp();
    const request = {
      resourceSpans: [{
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'checkout' } }] },
        scopeSpans: [{
          scope: { name: 'io.opentelemetry.http' },
          spans: [
            { traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', parentSpanId: '', name: 'POST /pay', kind: 2, startTimeUnixNano: '1544712660000000000', endTimeUnixNano: '1544712661000000000' },
            { traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b175', parentSpanId: 'eee19b7ec3c1b174', name: 'charge', startTimeUnixNano: '1544712660250000000', endTimeUnixNano: '1544712660750000000' },
          ],
        }],
      }],
    };
    writeFileSync(join(dir, 'traces.json.gz'), gzipSync(JSON.stringify(request) + '\n'));
    const { byInstance } = await recordsByInstance(dir);
    expect(byInstance['5b8efff798038103d269b633813fc60c']).toEqual([
      'E 1544712660 checkout:POST /pay.start',
      'E 1544712660.25 checkout:charge.start',
      'E 1544712660.75 checkout:charge.end',
      'S 1544712660.75 checkout:charge self 0.5',
      'E 1544712661 checkout:POST /pay.end',
      'S 1544712661 checkout:POST /pay self 0.5',
    ]);
  });

  it('reads a pretty-printed OTLP/JSON document and JSON Lines spans', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'a.json'), JSON.stringify({ resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 's' } }] }, scopeSpans: [{ spans: [
      { traceId: 'x', spanId: '1', name: 'op', startTimeUnixNano: '2000000000', endTimeUnixNano: '3000000000' }] }] }] }, null, 2));
    writeFileSync(join(dir, 'b.jsonl'), JSON.stringify({ TraceID: 'y', SpanID: '1', ParentID: 'root', PodName: 'p', OperationName: 'op', StartTimeUnixNano: 1000000000, EndTimeUnixNano: 1500000000 }) + '\n');
    const { byInstance } = await recordsByInstance(dir);
    expect(byInstance.x).toEqual(['E 2 s:op.start', 'E 3 s:op.end', 'S 3 s:op self 1']);
    expect(byInstance.y).toEqual(['E 1 p:op.start', 'E 1.5 p:op.end', 'S 1.5 p:op self 0.5']);
  });

  it('strips Kubernetes Deployment replica suffixes only', () => {
    expect(serviceOfPod('ts-basic-service-5dc8d4f9fd-46997')).toBe('ts-basic-service');
    expect(serviceOfPod('ts-consign-price-service-df498d7fb-725nt')).toBe('ts-consign-price-service');
    expect(serviceOfPod('checkout')).toBe('checkout');
    expect(serviceOfPod('web-2')).toBe('web-2');
  });
});

describe('malformed spans', () => {
  const analyse = async (lines: string[]) => {
    const dir = tmp();
    mkdirSync(join(dir, 'g'));
    mkdirSync(join(dir, 'b'));
    const ok = (id: string) => row(id, 'r', 'root', 'svc', 'op', 1_700_000_000, 1_700_000_000.01);
    writeFileSync(join(dir, 'g', 'trace.csv'), [HEADER, ok('g1'), ok('g2'), ok('g3')].join('\n') + '\n');
    writeFileSync(join(dir, 'b', 'trace.csv'), [HEADER, ok('b1'), ok('b2'), ...lines].join('\n') + '\n');
    return run(join(dir, 'g'), join(dir, 'b'), '--no-color', '--json', join(dir, 'out.json'));
  };

  it('a parent cycle is a one-line error naming file, line and the cycle', async () => {
    const r = await analyse([row('c', 'x', 'y', 'svc', 'op', 1_700_000_000, 1_700_000_001), row('c', 'y', 'x', 'svc', 'op', 1_700_000_000, 1_700_000_001)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^distalyze: .*\/b\/trace\.csv:4: trace c: spans form a parent cycle \(x → y → x\)\n/);
  });

  it('an end before the start is a one-line error', async () => {
    const r = await analyse([row('e', 'x', '', 'svc', 'op', 1_700_000_001, 1_700_000_000)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^distalyze: .*\/b\/trace\.csv:4: span x of trace e ends before it starts \(end 1700000000000000000 < start 1700000001000000000 ns\)\n/);
  });

  it('a missing parent makes the span a root, counted in a note', async () => {
    const r = await analyse([row('m', 'x', 'gone', 'svc', 'op', 1_700_000_000, 1_700_000_000.02), row('m', 'z', 'gone2', 'svc', 'op', 1_700_000_000, 1_700_000_000.02)]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/note: .*\/b\/trace\.csv: 2 span\(s\) name a parent that is not in their trace \(e\.g\. span x of trace m\); each was taken as a root/);
  });
});

describe('a generated trace with a slow leaf span', () => {
  it('ranks the leaf\'s self time first', async () => {
    const dir = tmp();
    const rng = mulberry32(7);
    const jitter = (s: number) => s * (0.8 + 0.4 * rng());
    for (const cls of ['good', 'bad'] as const) {
      const lines = [HEADER];
      for (let i = 0; i < 40; i++) {
        const id = `${cls}-${i}`;
        let t = 1_700_000_000 + i;
        const start = t;
        // gateway → frontend → [auth, db-query (the leaf: +40 ms in bad), render]
        const spans: string[] = [];
        const fStart = (t += jitter(0.001));
        const auth = [t += jitter(0.001), t += jitter(0.005)];
        const query = [t += jitter(0.001), t += jitter(0.010) + (cls === 'bad' ? 0.040 : 0)];
        const render = [t += jitter(0.001), t += jitter(0.008)];
        const fEnd = (t += jitter(0.001));
        const end = (t += jitter(0.001));
        spans.push(row(id, 'g', 'root', 'gateway-7d4f5b99fd-ktwc6', 'GET /page', start, end));
        spans.push(row(id, 'f', 'g', 'frontend-5c596ccb87-f5trg', 'render page', fStart, fEnd));
        spans.push(row(id, 'a', 'f', 'auth-7b6dc75c45-2z9p2', 'check', auth[0]!, auth[1]!));
        spans.push(row(id, 'q', 'f', 'db-b5ccf8557-j4txs', 'SELECT orders', query[0]!, query[1]!));
        spans.push(row(id, 'r', 'f', 'frontend-5c596ccb87-f5trg', 'template', render[0]!, render[1]!));
        lines.push(...spans);
      }
      mkdirSync(join(dir, cls));
      writeFileSync(join(dir, cls, 'trace.csv'), lines.join('\n') + '\n');
    }
    const r = await run(join(dir, 'good'), join(dir, 'bad'), '--quiet', '--json', '-');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { ranking: { variable: string }[] };
    const ranked = doc.ranking.map((v) => v.variable).filter((v) => v !== 'duration');
    expect(ranked[0]).toBe('db:SELECT orders self');
  });
});
