import type { Command } from 'commander';
import type { RunSelection } from '../clickhouse/runs.js';
import { InputError } from '../errors.js';
import type { InputFile } from '../parse/input-file.js';
import type { ClickHouseSource } from '../read-options.js';
import { readRuns, type RunFilesHook, type RunInput, type RunsRead } from '../read/runs.js';
import { clickhouseSource, parseWeight } from './options.js';

/** The runs given as directories (a run given as one file lists that file alone), labelled for OutputGuard.against. */
export function runDirectories(runs: readonly RunInput[], listed: readonly (readonly InputFile[])[], label: string): [string, string][] {
  return runs.filter((r, i) => !(listed[i]!.length === 1 && listed[i]![0]!.path === r.path)).map((r) => [label, r.path]);
}

export interface RunCommandIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream;
}

/** Options shared by `check` and `history`: the metric, the reader, --ignore. */
export interface RunsRawOptions {
  metric?: string;
  eventMetric?: string;
  stateMetric?: string;
  ignore: string[];
  translator?: string;
  year?: string;
  strict?: boolean;
  alpha: string;
  json?: string;
  quiet?: boolean;
  clickhouse?: string;
  table?: string;
  mapping?: string;
  columns?: string;
}

export function addRunsOptions(cmd: Command): Command {
  return cmd
    .option('--metric <name>', 'the variable that measures performance (default: the built-in duration)')
    .option('--event-metric <name>', 'the event variable that is the metric')
    .option('--state-metric <name>', 'the state variable that is the metric')
    .option('--ignore <glob>', 'leave out variables whose whole name matches this glob (* any characters, ? one); repeatable', (v: string, all: string[]) => [...all, v], [] as string[])
    .option('--translator <file>', 'translate raw logs: a rules file (.yaml/.json), a JS module, or an executable')
    .option('--year <yyyy>', 'year for timestamps that have none (syslog)')
    .option('--strict', 'stop at the first line that is not a record')
    .option('-q, --quiet', 'no text report on stderr when --json - takes stdout (check: no text report at all, only what was asked for, else the gate\'s line)')
    .option('--clickhouse <url>', 'the runs are in ClickHouse (http://host:8123/db; user and password from CLICKHOUSE_USER, CLICKHOUSE_PASSWORD): the arguments are time windows START/END or SQL conditions, each taking the runs of the rows it matches')
    .option('--table <name>', 'with --clickhouse: the table of the logs')
    .option('--mapping <name>', 'with --clickhouse: the table\'s shape: records, otel_traces or otel_logs (default: records)')
    .option('--columns <field=col,...>', 'with --clickhouse: the mapping\'s columns renamed; run=COLUMN names the runs (needed)');
}

/** --clickhouse URL --table T [--mapping M] [--columns …] of `check` and `history`, or undefined (runs from files). */
export function tableSource(raw: RunsRawOptions): ClickHouseSource | undefined {
  return clickhouseSource(raw, [['--translator', raw.translator], ['--year', raw.year], ['--strict', raw.strict]]);
}

/**
 * Runs from a ClickHouse table (src/clickhouse/runs.ts): each selection's runs, as RunInputs (named by the run
 * column, their path the table) and what reading them produced, as readRunsFor gives for files.
 */
export async function readTableRunsFor(command: string, source: ClickHouseSource, selections: readonly RunSelection[], raw: RunsRawOptions,
  minInstances: { good: number; bad: number }): Promise<RunsRead> {
  const { readClickHouseRuns } = await import('../clickhouse/runs.js');
  const read = await readClickHouseRuns(command, source, selections, { ...metricOptions(raw), weight: parseWeight('none'), minInstances });
  const runs = read.runs.map((r): RunInput => ({ name: r.name, path: source.table, className: r.className }));
  return { features: read.features, runOf: read.runOf, runs, skipped: read.skipped };
}

function metricOptions(raw: RunsRawOptions): { metric?: string; eventMetric?: string; stateMetric?: string } {
  if (raw.metric !== undefined && (raw.eventMetric !== undefined || raw.stateMetric !== undefined)) {
    throw new InputError('--metric sets both kinds; use it alone, or --event-metric / --state-metric instead');
  }
  return {
    ...(raw.metric !== undefined ? { metric: raw.metric } : {}),
    ...(raw.eventMetric !== undefined ? { eventMetric: raw.eventMetric } : {}),
    ...(raw.stateMetric !== undefined ? { stateMetric: raw.stateMetric } : {}),
  };
}

/** Read runs with the options `check` and `history` share (metric, translator, strictness). */
export async function readRunsFor(runs: readonly RunInput[], raw: RunsRawOptions, minInstances: { good: number; bad: number }, onFiles?: RunFilesHook): Promise<RunsRead> {
  const metric = metricOptions(raw);
  if (raw.year !== undefined && !/^\d{4}$/.test(raw.year)) throw new InputError(`--year must be a year such as 2026, not '${raw.year}'`);
  let translator;
  if (raw.translator !== undefined) {
    const { loadTranslator } = await import('../parse/translators/load.js');
    translator = await loadTranslator(raw.translator, raw.year !== undefined ? { year: Number(raw.year) } : {});
  }
  return readRuns(runs, {
    ...metric,
    weight: parseWeight('none'),
    minInstances,
    ...(translator !== undefined ? { translator } : {}),
    strict: raw.strict === true,
    ...(onFiles !== undefined ? { onFiles } : {}),
  });
}

export function numberOption(option: string, text: string, ok: (x: number) => boolean, what: string): number {
  const x = Number(text);
  if (text.trim() === '' || !Number.isFinite(x) || !ok(x)) throw new InputError(`${option} ${text}: ${what}`);
  return x;
}
