import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every relative Markdown link in the README, docs/, bench/, examples/ and fixtures/
// points at a file of the repository, and a `#fragment` at a heading of the
// Markdown file it names (GitHub's anchors). External links are not checked.

const ROOT = join(import.meta.dirname, '..');

/** The text outside fenced code blocks and inline code, where links and headings are Markdown. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
export function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-');
}

/** The anchors of a Markdown document's headings (a repeated heading gets -1, -2, … as on GitHub). */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const withoutFences = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const m of withoutFences.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1]!);
    let name = base;
    for (let i = 1; out.has(name); i++) name = `${base}-${i}`;
    out.add(name);
  }
  return out;
}

/** The broken relative links of one Markdown file (its path relative to ROOT, and its text). */
export function brokenLinks(file: string, markdown: string, root = ROOT): string[] {
  const broken: string[] = [];
  for (const m of prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = m[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
    const [path, fragment] = target.split('#', 2) as [string, string | undefined];
    const abs = path === '' ? join(root, file) : resolve(root, dirname(file), decodeURIComponent(path));
    if (!abs.startsWith(root) || !existsSync(abs)) {
      broken.push(`${file}: ${target} (no such file)`);
      continue;
    }
    if (fragment === undefined || fragment === '') continue;
    if (statSync(abs).isDirectory() || !abs.endsWith('.md')) {
      broken.push(`${file}: ${target} (an anchor in a file that is not Markdown)`);
      continue;
    }
    const headings = anchors(path === '' ? markdown : readFileSync(abs, 'utf8'));
    if (!headings.has(decodeURIComponent(fragment).toLowerCase())) {
      broken.push(`${file}: ${target} (no heading #${fragment} in ${relative(root, abs)})`);
    }
  }
  return broken;
}

const docs = (): string[] => [
  'README.md',
  'bench/README.md',
  'fixtures/README.md',
  'examples/README.md',
  ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
  ...readdirSync(join(ROOT, 'examples'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(ROOT, 'examples', d.name, 'README.md')))
    .map((d) => `examples/${d.name}/README.md`),
];

describe('links in the docs', () => {
  it('every relative link in README.md, docs/*.md and the other READMEs resolves', () => {
    const broken = docs().flatMap((file) => brokenLinks(file, readFileSync(join(ROOT, file), 'utf8')));
    expect(broken).toEqual([]);
  });

  it('finds a missing file, a missing heading and a link into a non-Markdown file; ignores code and URLs', () => {
    const text = [
      '# Title',
      '## A heading: with `code` (SPEC §3)',
      'ok: [readme](README.md), [self](#title), [other](docs/method.md), [heading](#a-heading-with-code-spec-3), [web](https://example.com/x.md)',
      'bad: [gone](docs/no-such-file.md), [anchor](README.md#no-such-heading), [json](package.json#x)',
      '`[in code](nowhere.md)`',
      '```',
      '[in a fence](nowhere-either.md)',
      '```',
    ].join('\n');
    const broken = brokenLinks('README.md', text).map((b) => b.replace(/ \(.*$/, ''));
    expect(broken).toEqual([
      'README.md: docs/no-such-file.md',
      'README.md: README.md#no-such-heading',
      'README.md: package.json#x',
    ]);
    expect(slug('Tests (SPEC §3)')).toBe('tests-spec-3');
    expect(slug('Template mining: `npm run bench:templates`')).toBe('template-mining-npm-run-benchtemplates');
  });
});
