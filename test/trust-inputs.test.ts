/**
 * Issue 54 ("Trust, round 3"), the inputs: what a reader skips, drops or cannot
 * time is counted and reported, or is an error naming file and line.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './helpers/run.js';

function dir(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'distalyze-trust-inputs-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

const stamp = (s: number): string => {
  const d = new Date(Date.UTC(2026, 10, 20, 10, 0, 0) + Math.round(s * 1000));
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 19)},${d.toISOString().slice(20, 23)}`;
};
const apache = (s: number): string => {
  const d = new Date(Date.UTC(2026, 10, 20, 10, 0, 0) + Math.round(s * 1000));
  return `20/Nov/2026:${d.toISOString().slice(11, 19)} +0000`;
};

describe('raw logs: an empty or comment-only file (item 10)', () => {
  const logs = (k: number, end: number): string => `${stamp(k)} INFO a ${k}\n${stamp(k + end)} INFO done\n`;
  it.each([['empty', ''], ['comment-only', '# rotated\n\n']])('an %s file in a raw class neither switches the run to records nor blames the other class', async (_what, text) => {
    const root = dir({ 'g/n1.log': logs(1, 2), 'g/n2.log': logs(2, 2), 'g/n3.log': logs(3, 2), 'b/a-empty.log': text, 'b/n1.log': logs(1, 5), 'b/n2.log': logs(2, 5), 'b/n3.log': logs(3, 5) });
    const r = await run(join(root, 'g'), join(root, 'b'), '--json', '/dev/null');
    expect(r.code).toBe(0);
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe('raw logs, no translator: 2 templates mined from ' + (text === '' ? 12 : 14) + ' lines (timestamps: yyyy-MM-dd HH:mm:ss,SSS; header learned: level; one file = one instance); see them with distalyze templates GOOD BAD');
    expect(lines).toContain(`  1 file held no log line (empty, or blank and # lines only): no instance, e.g. ${join(root, 'b/a-empty.log')}`);
  });
});

describe('raw logs: lines whose timestamp is in another format (item 4)', () => {
  // 60 lines over 29 s in log4j's format, then the rest of the run in Apache's: 3 minutes (good) against 13 (bad).
  const file = (minutes: number, foreign: number, own = 60): string => {
    const out: string[] = [];
    for (let i = 0; i < own; i++) out.push(`${stamp((i * 29) / (own - 1))} INFO step ${i}`);
    for (let i = 0; i < foreign; i++) out.push(`${apache(30 + (i * (minutes * 60 - 30)) / Math.max(1, foreign - 1))} INFO later ${i}`);
    return `${out.join('\n')}\n`;
  };
  it('past 1% of a file, an error naming the first such line', async () => {
    const root = dir({ 'g/n1.log': file(3, 40), 'g/n2.log': file(3, 40), 'g/n3.log': file(3, 40), 'b/n1.log': file(13, 40), 'b/n2.log': file(13, 40), 'b/n3.log': file(13, 40) });
    const r = await run(join(root, 'g'), join(root, 'b'));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`distalyze: ${join(root, 'g/n1.log')}:61: 40 of 100 lines (40%) begin with a timestamp in another format than the file's yyyy-MM-dd HH:mm:ss,SSS ` +
      "(found in its first lines), as this one does: '20/Nov/2026:10:00:30 +0000 INFO later 0'; their times would be lost\n" +
      '  hint: give each format its own file, name the format with --timestamp FORMAT, or write a translator (--translator)\n');
  });

  it('below it, counted and reported with the stack-trace lines that continue a timed line', async () => {
    const good = `${file(3, 0)}${'\tat Foo.bar(Foo.java:1)\n'.repeat(3)}`;
    const bad = `${file(3, 0, 150)}${apache(31)} INFO stray\n`;
    const root = dir({ 'g/n1.log': good, 'g/n2.log': good, 'g/n3.log': good, 'b/n1.log': bad, 'b/n2.log': file(3, 0), 'b/n3.log': file(3, 0) });
    const r = await run(join(root, 'g'), join(root, 'b'), '--json', '/dev/null');
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')[1]).toBe(`  10 lines had no timestamp in their file's format and took the previous line's time (continuations, e.g. stack traces); 1 of them begin with a timestamp in another format, e.g. ${join(root, 'b/n1.log')}:151: '20/Nov/2026:10:00:31 +0000 INFO stray'`);
    const t = await run('templates', join(root, 'g'), join(root, 'b'));
    expect(t.stdout.split('\n')[1]).toBe(`10 lines had no timestamp in their file's format and took the previous line's time (continuations, e.g. stack traces); 1 of them begin with a timestamp in another format, e.g. ${join(root, 'b/n1.log')}:151: '20/Nov/2026:10:00:31 +0000 INFO stray'`);
  });
});

describe('--metrics: a cell that is no number (item 6)', () => {
  // Three instances a class, each touching the services a and b (one minute apart); samples every 60 s.
  const T0 = 1_790_000_000;
  const logs = (): Record<string, string> => {
    const files: Record<string, string> = {};
    for (const [c, slow] of [['g', 1], ['b', 3]] as const) {
      for (let i = 0; i < 3; i++) {
        const t = T0 + (c === 'g' ? 0 : 600) + 120 * i;
        files[`${c}/i${i}.dlog`] = `E\t${t}\ta:call\nE\t${t + 1}\tb:call\nE\t${t + 1 + slow}\ta:done\n`;
      }
    }
    return files;
  };
  const metrics = (cell: (row: number, pod: string) => string): string => {
    const rows = ['TimeStamp,PodName,Cpu,Mem'];
    for (let k = 0; k < 24; k++) for (const pod of ['a', 'b']) rows.push(`${T0 - 60 + 60 * k},${pod},${cell(k, pod)},${100 + ((k * 7) % 5)}`);
    return `${rows.join('\n')}\n`;
  };
  const cpu = (k: number): string => String(10 + ((k * 3) % 7));

  it.each(['NaN', 'N/A', '-', '1e999'])('one %s cell is skipped and counted; the metric stays for every pod', async (bad) => {
    const root = dir({ ...logs(), 'm/pods.csv': metrics((k, pod) => (k === 5 && pod === 'a' ? bad : cpu(k))) });
    const r = await run(join(root, 'g'), join(root, 'b'), '--metrics', join(root, 'm'), '--json', '-');
    expect(r.code).toBe(0);
    const variables = new Set((JSON.parse(r.stdout) as { tests: { variable: string }[] }).tests.map((t) => t.variable));
    expect([...variables].filter((v) => v.endsWith(':Cpu')).sort()).toEqual(['a:Cpu', 'b:Cpu']);
    expect(r.stderr).toContain(`  note: --metrics: 1 cell said the value is missing or out of range (NaN, N/A, -, inf, 1e999…) and was skipped as missing samples, e.g. ${join(root, 'm/pods.csv')}:12 column Cpu: '${bad}'\n`);
  });

  it('a column with other text among numbers is left out, and said so', async () => {
    const root = dir({ ...logs(), 'm/pods.csv': metrics((k, pod) => (k === 5 && pod === 'a' ? 'high' : cpu(k))) });
    const r = await run(join(root, 'g'), join(root, 'b'), '--metrics', join(root, 'm'), '--json', '-');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`  note: ${join(root, 'm/pods.csv')}: column Cpu left out of the metrics: 'high' on line 12 is not a number\n`);
  });

  it('samples days away from every instance are said so, and so is a join that joined nothing', async () => {
    const far = dir({ ...logs(), 'm/pods.csv': metrics(cpu).replace(/^(\d+)/gm, (t) => String(Number(t) + 3 * 86400)) });
    const r = await run(join(far, 'g'), join(far, 'b'), '--metrics', join(far, 'm'), '--json', '-');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("  note: --metrics: 12 of 12 instance–service joins had no sample covering the instance's time (the nearest sample was used; farthest 3 days away, instance i0.dlog, service a)\n");
    const none = dir({ 'g/i0.dlog': 'E\t0\tx\nE\t1\ty\n', 'g/i1.dlog': 'E\t0\tx\nE\t1.1\ty\n', 'b/i0.dlog': 'E\t0\tx\nE\t2\ty\n', 'b/i1.dlog': 'E\t0\tx\nE\t2.1\ty\n', 'm/pods.csv': metrics(cpu) });
    const n = await run(join(none, 'g'), join(none, 'b'), '--metrics', join(none, 'm'), '--json', '-');
    expect(n.stderr).toContain("  note: --metrics: nothing was joined: no record names a metric entity (its service, e.g. 'a', 'b') before a ':' (service:operation)\n");
  });

  it('a row with more fields than the header is an error naming file and line', async () => {
    const root = dir({ ...logs(), 'm/pods.csv': metrics((k, pod) => (k === 5 && pod === 'a' ? '12,5' : cpu(k))) });
    const r = await run(join(root, 'g'), join(root, 'b'), '--metrics', join(root, 'm'));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`distalyze: ${join(root, 'm/pods.csv')}:12: row has 5 fields, the header 4 (a comma inside a value?)\n`);
  });
});

describe('spans: a span id given twice (item 5)', () => {
  const HEADER = 'TraceID,SpanID,ParentID,PodName,OperationName,StartTimeUnixNano,EndTimeUnixNano';
  /** Traces of a gateway span (gw:api) calling a backend span (db:query) that takes `slow` ms. */
  const spans = (traces: number, slow: number, t0: number): string[] => {
    const rows: string[] = [];
    for (let i = 0; i < traces; i++) {
      const start = BigInt(t0 + i) * 1_000_000_000n;
      const ms = BigInt(slow + (i % 3)) * 1_000_000n;
      rows.push(`t${t0}-${i},g${i},root,gw,api,${start},${start + ms + 2_000_000n}`);
      rows.push(`t${t0}-${i},d${i},g${i},db,query,${start + 1_000_000n},${start + 1_000_000n + ms}`);
    }
    return rows;
  };

  it('exact duplicates (a file exported twice) are read once, counted in a note; the gateway wait on db (db:api wait) is no cause', async () => {
    const good = spans(12, 10, 1000);
    const bad = spans(12, 40, 2000);
    const once = dir({ 'g/spans.csv': `${HEADER}\n${good.join('\n')}\n`, 'b/spans.csv': `${HEADER}\n${bad.join('\n')}\n` });
    const twice = dir({ 'g/spans.csv': `${HEADER}\n${good.join('\n')}\n`, 'b/spans.csv': `${HEADER}\n${bad.join('\n')}\n${bad.join('\n')}\n` });
    const self = async (root: string): Promise<{ p: number; stderr: string }> => {
      const r = await run(join(root, 'g'), join(root, 'b'), '--json', '-');
      expect(r.code).toBe(0);
      const tests = (JSON.parse(r.stdout) as { tests: { variable: string; feature: string; p: number }[] }).tests;
      // A copy kept would have no child, so its whole duration would be the gateway's own time: gw:api self.
      expect(tests.filter((t) => t.variable === 'gw:api self')).toEqual([]);
      return { p: tests.find((t) => t.variable === 'db:api wait' && t.feature === 'max')!.p, stderr: r.stderr };
    };
    const a = await self(once);
    const b = await self(twice);
    expect(b.p).toBe(a.p);
    expect(b.stderr).toContain(`  note: ${join(twice, 'b/spans.csv')}: 24 span(s) repeat an earlier span exactly (same trace and span id, e.g. span g0 of trace t2000-0, line 26); each was read once\n`);
  });

  it('another span under the same id is an error naming file and line', async () => {
    const bad = spans(3, 40, 2000);
    const root = dir({ 'g/spans.csv': `${HEADER}\n${spans(3, 10, 1000).join('\n')}\n`, 'b/spans.csv': `${HEADER}\n${bad.join('\n')}\nt2000-1,d1,g1,db,query,2001001000000,2001900000000\n` });
    const r = await run(join(root, 'g'), join(root, 'b'));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`distalyze: ${join(root, 'b/spans.csv')}:8: span d1 of trace t2000-1 is given twice, differently ` +
      "(first on line 5: db:query, 2001.001–2001.042 s, parent 'g1'; here: db:query, 2001.001–2001.9 s, parent 'g1')\n");
  });
});

describe('the same file reached twice in a class (beyond the items)', () => {
  it('through a symbolic link: an error naming both paths', async () => {
    const root = dir({ 'g/i1.dlog': 'E\t0\tStart\nE\t1\tEnd\n', 'g/i2.dlog': 'E\t0\tStart\nE\t1.1\tEnd\n', 'b/i1.dlog': 'E\t0\tStart\nE\t2\tEnd\n', 'b/i2.dlog': 'E\t0\tStart\nE\t2.1\tEnd\n' });
    symlinkSync('i1.dlog', join(root, 'g', 'i3.dlog'));
    const r = await run(join(root, 'g'), join(root, 'b'));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`distalyze: good class: '${join(root, 'g/i3.dlog')}' is the same file as '${join(root, 'g/i1.dlog')}' (a symbolic or hard link): it would count twice\n` +
      '  hint: remove the link, or point distalyze at a directory without it\n');
  });
});
