import { escapeTerminal, plural } from '../report/format.js';

/**
 * The lines of one run that were not records (check, history). `lost`: those
 * that were meant to be (not a record, a translator rule that matched but
 * could not use its line, a line over the limit), as against the lines a
 * translator's rules pass over by design (`lines − lost`).
 */
export interface RunSkipped {
  readonly run: string;
  readonly lines: number;
  readonly lost: number;
  /** The first lost line (`file:line: reason`), '' if none. */
  readonly firstLost: string;
  readonly examples: readonly string[];
}

/**
 * The skipped lines of some runs as the main command reports a class's: one
 * line with the count and where they were, then up to three examples (lost
 * lines first). None when no line was skipped.
 */
export function skippedText(skipped: readonly RunSkipped[], groups: readonly { readonly label: string; readonly runs: readonly RunSkipped[] }[]): string[] {
  const total = skipped.reduce((n, s) => n + s.lines, 0);
  if (total === 0) return [];
  const where = groups.filter((g) => g.runs.length > 0).map((g) => `${g.label} ${g.runs.reduce((n, s) => n + s.lines, 0)}`).join(', ');
  const runs = skipped.filter((s) => s.lines > 0).map((s) => `${escapeTerminal(s.run)} ${s.lines}`).join(', ');
  const lost = skipped.reduce((n, s) => n + s.lost, 0);
  const examples = [...skipped.map((s) => s.firstLost).filter((e) => e !== ''), ...skipped.flatMap((s) => s.examples)];
  const shown = [...new Set(examples)].slice(0, 3);
  return [
    `skipped ${plural(total, 'line')} that ${total === 1 ? 'was not a record' : 'were not records'} (${where !== '' ? `${where}; ` : ''}by run: ${runs})` +
      `${lost > 0 && lost < total ? `, ${lost} of them lost records (the rest no translator rule matched)` : ''}, e.g.:`,
    ...shown.map((e) => `  ${escapeTerminal(e)}`),
  ];
}

/** For --json: per run with skipped lines, its counts and examples. */
export function skippedJson(skipped: readonly RunSkipped[]): { run: string; lines: number; lost: number; examples: string[] }[] {
  return skipped.filter((s) => s.lines > 0).map((s) => ({ run: s.run, lines: s.lines, lost: s.lost, examples: [...new Set([...(s.firstLost !== '' ? [s.firstLost] : []), ...s.examples])] }));
}
