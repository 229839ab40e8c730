import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from './helpers/synth.js';
import { run } from './helpers/run.js';

describe('--help', () => {
  it('groups the options (input, analysis, output, advanced), states defaults, ends with examples', async () => {
    const r = await run('--help');
    expect(r.code).toBe(0);
    const headings = r.stdout.split('\n').filter((l) => /^[A-Z][a-z]+:$/.test(l));
    expect(headings).toEqual(['Arguments:', 'Options:', 'Input:', 'Analysis:', 'Output:', 'Advanced:', 'Commands:', 'Examples:']);
    const section = (h: string): string => r.stdout.split(`\n${h}\n`)[1]!.split(/\n\n[A-Z]/)[0]!;
    expect(section('Input:')).toContain('--translator <file>');
    expect(section('Analysis:')).toMatch(/--alpha <p> +significance level before correction\s+\(default: "0\.05"\)/);
    expect(section('Output:')).toContain('--html <file>');
    expect(section('Advanced:')).toContain('--balance <a>');
    expect(section('Output:')).not.toContain('--balance');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toContain('npm install -g .');
  });
});

describe('--quiet', () => {
  it('with --html FILE prints nothing: the report file is the only output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-quiet-'));
    const r = await run(FIXTURES.pipelineGood, FIXTURES.pipelineBad, '-q', '--html', join(dir, 'r.html'));
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(dir, 'r.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/i);
  });

  it('alone still prints the terminal report (it is then the only output)', async () => {
    const r = await run(FIXTURES.pipelineGood, FIXTURES.pipelineBad, '-q', '--no-color');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Top cause: lock_wait_ms');
    expect(r.stderr).toBe('');
  });
});
