/**
 * The run's summary line of a mining (what was read, how, and what was left) and its notes on lines without a
 * time of their own: for the CLI's summary and `distalyze templates`.
 */
import { describeTable } from '../layout.js';
import { describeHeader } from './header.js';
import type { InstanceRule } from './instances.js';
import type { FileLayout } from './types.js';

/** What the summary reads of a mining (index.ts TemplateModel extends it). */
export interface MiningSummary {
  /** Per file path: where its timestamps are. */
  readonly files: Readonly<Record<string, FileLayout>>;
  readonly instance: InstanceRule | null;
  readonly templates: ReadonlyArray<{ readonly statement?: boolean }>;
  /** Lines read in the mining pass, and those that had no timestamp and no earlier line to continue. */
  readonly lines: number;
  readonly untimed: number;
  /**
   * Lines without a timestamp in their file's format that took the previous line's time (a stack trace's
   * lines), of them those that begin with a timestamp in another format (foreign: their own time was lost),
   * and the first such line (`file:line`). Absent (0) for a model built by hand.
   */
  readonly continued?: number;
  readonly foreign?: number;
  readonly foreignExample?: string;
  /** CRI lines cut by the runtime (`P`) with no final part at their file's end, kept as they are (cri-partial.ts). */
  readonly partial?: number;
  /** Files with no log line (empty, or blank and `#` lines only): no instance. */
  readonly empty?: readonly string[];
}

/** The source column of a table that names instances (layout.ts TableLayout.source). */
function sourceName(model: MiningSummary): string {
  const table = Object.values(model.files).find((f) => f.table !== undefined && f.table.source >= 0)?.table;
  return table === undefined ? 'source' : table.columns[table.source] as string;
}

/** Whether the text files' header opens with kubectl's `[pod/…]` prefix (split.ts: its pod is the line's host). */
export function podPrefixed(model: Pick<MiningSummary, 'files'>): boolean {
  return Object.values(model.files).some((f) => f.table === undefined && f.textHeader?.slots[0] === 'pod');
}

export function describeModel(model: MiningSummary): string {
  const formats = [...new Set(Object.entries(model.files).filter(([path]) => !(model.empty ?? []).includes(path)).map(([, f]) => f.format))].join(', ');
  const notes = untimedNotes(model).map((n) => `\n${n}`).join('');
  const statements = model.templates.filter((t) => t.statement === true).length;
  const layouts = Object.values(model.files);
  if (layouts.some((f) => f.table !== undefined)) {
    const headers = [...new Set(layouts.flatMap((f) => (f.table === undefined || f.textHeader === undefined ? [] : [describeHeader(f.textHeader, ' in the messages')])))];
    // (With no entity column, the entity the messages' header names: `no entity` would say otherwise.)
    const headerEntity = layouts.some((f) => f.table !== undefined && f.textHeader !== undefined && f.textHeader.entity >= 0);
    const tables = [...new Set(layouts.flatMap((f) => (f.table === undefined ? [] : [describeTable(f.table, headerEntity)])))];
    return `raw logs, no translator: ${tables.join(' | ')}${headers.map((h) => `; ${h}`).join('')}; ${model.templates.length - statements} templates mined` +
      `${statements > 0 ? `, ${statements} log statements named by the lines` : ''} from ${model.lines} ${linesWord(model)}; ` +
      `${model.instance === null ? 'one file = one instance' : model.instance.kind === 'column' ? `instances by ${model.instance.name}`
        : model.instance.kind === 'host' ? `instances by ${sourceName(model)} (no request id)` : 'instances by a request id'}; see them with distalyze templates GOOD BAD` + notes;
  }
  const instances = model.instance === null ? 'one file = one instance'
    : model.instance.kind === 'host' ? (podPrefixed(model) ? 'instances by pod of kubectl\'s --prefix (no request id)' : 'instances by syslog host') : model.instance.kind === 'column' ? `instances by column '${model.instance.name}'` : `instances by /${model.instance.pattern}/`;
  const pipes = (Object.values(model.files).some((f) => f.pipes !== undefined) ? '; header fields joined by |' : '') +
    (Object.values(model.files).some((f) => f.ids !== undefined) ? '; leading pid/tid fields left out' : '') +
    [...new Set(Object.values(model.files).flatMap((f) => (f.textHeader === undefined ? [] : [describeHeader(f.textHeader)])))].map((h) => `; ${h}`).join('');
  return `raw logs, no translator: ${model.templates.length} templates mined from ${model.lines} lines (timestamps: ${formats}${pipes}; ${instances}); ` +
    'see them with distalyze templates GOOD BAD' + notes;
}

/** What a mining's lines are: `log records` where every file is OTLP/JSON (a line many records, each a row), else `lines`. */
export function linesWord(model: MiningSummary): string {
  const files = Object.values(model.files);
  return files.length > 0 && files.every((f) => f.table?.otlp === true) ? 'log records' : 'lines';
}

/** The counted lines that had no time of their own, and the files with no log line, one note each (none when all is well). */
export function untimedNotes(model: MiningSummary): string[] {
  const out: string[] = [];
  const lines = (n: number): string => `${n.toLocaleString('en-US')} line${n === 1 ? '' : 's'}`;
  const continued = model.continued ?? 0;
  const foreign = model.foreign ?? 0;
  if (continued > 0) {
    out.push(`  ${lines(continued)} had no timestamp in their file's format and took the previous line's time (continuations, e.g. stack traces)` +
      (foreign > 0 ? `; ${foreign.toLocaleString('en-US')} of them begin with a timestamp in another format, e.g. ${model.foreignExample ?? ''}` : ''));
  }
  if (model.untimed > 0) {
    const tables = Object.values(model.files).some((f) => f.table !== undefined);
    out.push(tables ? `  ${lines(model.untimed)} were no row that could be read (a width other than the header's, a quote that does not close, no time) or had no timestamp: not used`
      : `  ${lines(model.untimed)} had no timestamp and no earlier line to continue: not used`);
  }
  const partial = model.partial ?? 0;
  if (partial > 0) out.push(`  ${lines(partial)} cut by the container runtime (CRI \`P\`) had no final part at the end of their file: read as they are`);
  const empty = model.empty ?? [];
  if (empty.length > 0) out.push(`  ${empty.length} file${empty.length === 1 ? '' : 's'} held no log line (empty, or blank and # lines only): no instance, e.g. ${empty[0]}`);
  return out;
}
