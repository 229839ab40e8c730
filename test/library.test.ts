import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { run } from './helpers/run.js';

const ROOT = join(import.meta.dirname, '..');

/** The README's library example, as written there (between its marker and the closing fence). */
function readmeExample(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const m = /<!-- library-example[^\n]*\n```js\n([\s\S]*?)\n```/.exec(readme);
  if (m === null) throw new Error('README.md has no library example');
  return m[1]!;
}

describe('the library entry (package exports, README example)', () => {
  it('runs the README example through the package name and finds the planted cause', async () => {
    // Run by node itself from the repository root: `from 'distalyze'` resolves
    // through package.json "exports" (a package may import itself by name).
    const code = `${readmeExample()}\nprocess.stdout.write('\\n' + json.length + '\\n');`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT });
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Bad instances are worse: duration .* Top cause: lock_wait_ms /);
    expect(lines[1]).toBe('lock_wait_ms');
    expect(lines).toHaveLength(4);
  });

  it('returns what the CLI renders: renderJson(distalyze(…)) is byte-identical to --json -', async () => {
    // The built entry (not src/): typed as src/index.ts, which it is compiled from.
    const lib = (await import(pathToFileURL(join(ROOT, 'dist/index.js')).href)) as typeof import('../src/index.js');
    const analysis = await lib.distalyze({ good: join(ROOT, 'fixtures/pipeline/good'), bad: join(ROOT, 'fixtures/pipeline/bad') });
    const cli = await run(join(ROOT, 'fixtures/pipeline/good'), join(ROOT, 'fixtures/pipeline/bad'), '--json', '-', '--quiet');
    expect(cli.code).toBe(0);
    expect(lib.renderJson(analysis)).toBe(cli.stdout);
  });

  it('declares its types in dist/index.d.ts, as package.json exports them', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: { '.': { types: string; import: string } } };
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
    const dts = readFileSync(join(ROOT, 'dist/index.d.ts'), 'utf8');
    expect(dts).toContain('export declare function distalyze(options: DistalyzeOptions): Promise<Analysis>;');
  });
});

describe('readClasses hooks', () => {
  it('a second pass reports its start, then its bytes and files as the first pass does, then its end', async () => {
    const { readClasses } = await import('../src/index.js');
    const { FIXTURES } = await import('./helpers/synth.js');
    const seen = { bytes: 0, files: 0, second: [] as [number, number][], bytesAtSecond: -1, passes: [] as string[], deprecated: [] as [number, number][] };
    const hooks = {
      onBytes: (n: number) => { seen.bytes += n; },
      onFileDone: () => { seen.files++; },
      onPass: (pass: string, total: number, files: number) => { seen.passes.push(pass); seen.second.push([total, files]); seen.bytesAtSecond = seen.bytes; },
      onPassDone: (pass: string) => { seen.passes.push(`${pass} done at ${seen.bytes}`); },
      // The deprecated hook of the same pass is still called.
      onSecondPass: (total: number, files: number) => { seen.deprecated.push([total, files]); },
    };
    let listed = { bytes: 0, files: 0 };
    const read = await readClasses(FIXTURES.pipelineGood, FIXTURES.pipelineBad, { performance: { twoPass: true, jobs: 1 } }, {
      ...hooks,
      onFiles: (files, totalBytes) => { listed = { bytes: totalBytes, files: files.good.length + files.bad.length }; },
    });
    expect(read.features.features.instances.length).toBeGreaterThan(0);
    expect(listed.bytes).toBeGreaterThan(0);
    expect(seen.second).toEqual([[listed.bytes, listed.files]]);
    expect(seen.deprecated).toEqual(seen.second);
    expect(seen.passes).toEqual(['second', `second done at ${2 * listed.bytes}`]);
    // Each pass read every byte and file once.
    expect(seen.bytesAtSecond).toBe(listed.bytes);
    expect(seen).toMatchObject({ bytes: 2 * listed.bytes, files: 2 * listed.files });
  });
});

describe('readClasses progress on raw logs', () => {
  it('the template mining pass reports its start, its bytes and files, and its end; then the reading reports its own', async () => {
    // (The built module: mining on two threads starts its worker from dist.)
    const { readClasses } = (await import(pathToFileURL(join(ROOT, 'dist', 'index.js')).href)) as typeof import('../src/index.js');
    const root = join(import.meta.dirname, '..', 'fixtures', 'raw', 'log4j');
    for (const jobs of [1, 2]) {
      const events: string[] = [];
      let listed = { bytes: 0, files: 0 };
      let bytes = 0;
      let files = 0;
      const tally = (): void => {
        events.push(`${bytes} bytes, ${files} files`);
        bytes = 0;
        files = 0;
      };
      const passes: string[] = [];
      await readClasses(join(root, 'good'), join(root, 'bad'), { jobs, year: 2026 }, {
        onFiles: (f, totalBytes) => { listed = { bytes: totalBytes, files: f.good.length + f.bad.length }; },
        onPass: (pass, n, count) => passes.push(`${pass} ${n} bytes, ${count} files`),
        onPassDone: (pass) => passes.push(`${pass} done`),
        onMiningPass: (n, count) => { tally(); events.push(`mining ${n} bytes, ${count} files`); },
        onMiningPassDone: () => { tally(); events.push('mined'); },
        onBytes: (n) => { bytes += n; },
        onFileDone: () => { files++; },
      });
      tally();
      const all = `${listed.bytes} bytes, ${listed.files} files`;
      expect(events).toEqual(['0 bytes, 0 files', `mining ${all}`, all, 'mined', all]);
      expect(passes).toEqual([`mining ${all}`, 'mining done']);
    }
  });
});

describe('raw logs of one file a class', () => {
  it('are too few instances: the error comes after the mining pass, before the reading', async () => {
    const { readClasses } = await import('../src/index.js');
    const root = join(import.meta.dirname, '..', 'fixtures', 'raw', 'log4j');
    let listed = 0;
    let read = 0;
    const reading = readClasses(join(root, 'good', 'rs-1.log'), join(root, 'bad', 'rs-1.log'), { jobs: 1, year: 2026 }, {
      onFiles: (_f, totalBytes) => { listed = totalBytes; },
      onBytes: (n) => { read += n; },
    });
    await expect(reading).rejects.toThrow("good class: only 1 instance, and the bad class 1; one instance is compared with a class of at least 3, or give each class 2");
    expect(read).toBe(listed); // the mining pass's bytes only
    // Named by an id in the lines (an instance rule), the files hold more: read.
    const named = await readClasses(join(root, 'good', 'rs-1.log'), join(root, 'bad', 'rs-1.log'), { jobs: 1, year: 2026, instancePattern: '\\[(RpcServer\\.handler=\\d+)\\]' });
    expect(named.classes.good.instances).toBeGreaterThan(1);
    // dlog runs of one file each, their ends read ahead (64 KB and more, no I record at either end), naming requests
    // between: not known to be one instance each, so read.
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-one-file-'));
    const lines = (shift: number): string => {
      const out: string[] = [];
      for (let k = 0; k < 3000; k++) {
        if (k === 1000 || k === 2000) out.push(`I\treq-${k}`);
        out.push(`E\t${(100 + k * 0.01 + shift).toFixed(2)}\tStep`, `S\t${(100 + k * 0.01 + shift).toFixed(2)}\tqueue\t${k % 7}`);
      }
      return `${out.join('\n')}\n`;
    };
    writeFileSync(join(dir, 'good.dlog'), lines(0));
    writeFileSync(join(dir, 'bad.dlog'), lines(0.005));
    const requests = await readClasses(join(dir, 'good.dlog'), join(dir, 'bad.dlog'), { jobs: 1 });
    expect([requests.classes.good.instances, requests.classes.bad.instances]).toEqual([3, 3]);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('readClasses progress on compressed files', () => {
  it('is their compressed bytes, as listed: dlog on one thread and two, spans, and raw logs through a translator', async () => {
    const { readClasses } = await import('../src/index.js');
    const root = join(import.meta.dirname, '..', 'fixtures');
    const cases: [string, string, Parameters<typeof readClasses>[2]][] = [
      ['gz/good', 'gz/bad', { jobs: 1 }],
      ['gz/good', 'gz/bad', { jobs: 2 }],
      ['trainticket/good/trace.csv.gz', 'trainticket/bad/trace.csv.gz', { jobs: 1 }],
      ['trainticket/good', 'trainticket/bad', { jobs: 1, translator: join(root, 'trainticket', 'log.mjs') }],
    ];
    // Record tables (reader.ts readCsv), compressed here.
    const tables = mkdtempSync(join(tmpdir(), 'distalyze-progress-'));
    for (const c of ['good', 'bad']) {
      mkdirSync(join(tables, c));
      for (const name of readdirSync(join(root, 'csv', c))) writeFileSync(join(tables, c, `${name}.gz`), gzipSync(readFileSync(join(root, 'csv', c, name))));
    }
    cases.push([join(tables, 'good'), join(tables, 'bad'), { jobs: 1 }]);
    for (const [good, bad, options] of cases) {
      let listed = 0;
      let told = 0;
      await readClasses(resolve(root, good), resolve(root, bad), options, {
        onFiles: (_files, totalBytes) => { listed = totalBytes; },
        onBytes: (n) => { told += n; },
      });
      expect({ good, told }).toEqual({ good, told: listed });
    }
    rmSync(tables, { recursive: true, force: true });
  }, 30_000);
});
