/**
 * The house's layers, read from the code's own imports (issue 56).
 *
 * Data flows one way: parse → features → ttest → dependency-network →
 * attention → analysis → report, over a ground floor (errors, the statistics
 * of stats/); check and history are stages over the same results; read
 * executes a reading plan; cli and the library entry sit on top.
 * A module may import its own layer or any layer below it, never one above.
 *
 * parse/ turns bytes into records (its fast byte-level reading in parse/fast/,
 * held equal to the plain dlog.ts + lines.ts by test/dlog-fast.test.ts);
 * threads, workers and their protocol are read/parallel/; growable columns
 * and limits are the ground floor memory/. The test fails on any arrow up
 * and any circle.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..', 'src');

/** Lowest first. A top-level file `x.ts` is its own unit `x`; a folder is one unit. */
const LAYERS: readonly (readonly string[])[] = [
  ['errors', 'version', 'cleanup', 'validate', 'stats', 'memory'],
  ['parse'],
  ['features'],
  ['ttest'],
  ['dependency-network'],
  ['attention'],
  ['analysis'],
  ['report'],
  ['check', 'history'],
  ['clickhouse', 'read', 'read-options'],
  ['cli'],
  ['index'],
];

/**
 * Arrows up the layers allowed, `from → to` by file: none (issue 56 removed the twelve parse → features
 * arrows; a new one fails, and so would a line left here for an arrow that is gone).
 */
const KNOWN_UP = new Set<string>([]);

/** Import circles (strongly connected files) allowed, each as its sorted files: none. */
const KNOWN_CIRCLES = new Set<string>([]);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Every relative module a file imports or re-exports, statically or with `import()`, types included. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = new Set<string>();
  const patterns = [/\b(?:import|export)\b[^'";]*?\bfrom\s*['"](\.[^'"]+)['"]/g, /\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)/g, /^\s*import\s*['"](\.[^'"]+)['"]/gm];
  for (const re of patterns) for (const m of text.matchAll(re)) specs.add(m[1]!);
  return [...specs].map((s) => relative(SRC, resolve(dirname(file), s.replace(/\.js$/, '.ts'))));
}

const unitOf = (file: string): string => (file.includes('/') ? file.split('/')[0]! : file.replace(/\.ts$/, ''));
const layerOf = (file: string): number => {
  const unit = unitOf(file);
  const i = LAYERS.findIndex((l) => l.includes(unit));
  if (i < 0) throw new Error(`src/${file}: its unit "${unit}" is in no layer of test/layers.test.ts`);
  return i;
};

const files = sourceFiles(SRC).map((f) => relative(SRC, f));
const graph = new Map(files.map((f) => [f, importsOf(join(SRC, f)).filter((t) => files.includes(t))]));

/** Tarjan's strongly connected components with more than one file (or a file importing itself). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  let next = 0;
  const index = new Map<string, number>(), low = new Map<string, number>(), onStack = new Set<string>(), stack: string[] = [];
  const found: string[] = [];
  const visit = (v: string): void => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); onStack.add(v);
    for (const w of graph.get(v)!) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do { w = stack.pop()!; onStack.delete(w); scc.push(w); } while (w !== v);
      if (scc.length > 1 || graph.get(v)!.includes(v)) found.push(scc.sort().join(' ↔ '));
    }
  };
  for (const f of [...graph.keys()].sort()) if (!index.has(f)) visit(f);
  return found.sort();
}

describe('the layers of src/ (issue 56)', () => {
  it('every unit of src/ has a layer', () => {
    for (const f of files) expect(() => layerOf(f)).not.toThrow();
  });

  it('no module imports a layer above its own, but for the listed debts', () => {
    const up: string[] = [];
    for (const [from, tos] of graph) for (const to of tos) if (layerOf(to) > layerOf(from)) up.push(`${from} → ${to}`);
    expect(up.filter((e) => !KNOWN_UP.has(e)), 'new arrows up').toEqual([]);
    expect([...KNOWN_UP].filter((e) => !up.includes(e)), 'listed arrows that are gone: delete them from KNOWN_UP').toEqual([]);
  });

  it('no import circles, but for the listed debts', () => {
    const found = circles(graph);
    expect(found.filter((c) => !KNOWN_CIRCLES.has(c)), 'new circles').toEqual([]);
    expect([...KNOWN_CIRCLES].filter((c) => !found.includes(c)), 'listed circles that are gone: delete them').toEqual([]);
  });

  it('finds an arrow up and a circle when there is one (the reader of imports works)', () => {
    expect(importsOf(join(SRC, 'read/parallel/worker.ts'))).toContain('features/collector.ts');
    expect(layerOf('features/collector.ts')).toBeLessThan(layerOf('read/parallel/worker.ts'));
    expect(layerOf('parse/reader.ts')).toBeLessThan(layerOf('features/collector.ts'));
    const toy = new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']], ['d.ts', ['a.ts', 'd.ts']], ['e.ts', []]]);
    expect(circles(toy)).toEqual(['a.ts ↔ b.ts ↔ c.ts', 'd.ts']);
  });
});
