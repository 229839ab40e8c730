import type { Command } from 'commander';
import { InputError } from '../errors.js';
import { listInputFiles } from '../parse/files.js';
import type { TemplateModel } from '../parse/templates/index.js';
import { clip } from '../parse/dlog.js';
import { describeTable, type ColumnOverrides } from '../parse/layout.js';
import { describeHeader } from '../parse/templates/header.js';
import { linesWord, podPrefixed } from '../parse/templates/describe.js';
import { columnOverrides, typedOption } from './options.js';
import { OutputGuard } from './guard.js';
import { formatUserError, StagedOutputs, writeStream } from './output.js';

export interface TemplatesOptions {
  readonly good: string;
  readonly bad: string;
  /** Write a starter rules file here. */
  readonly out?: string;
  /** How the user named `out` (`-o` or `--out`, default), for errors. */
  readonly outOption?: string;
  /** Print, for each input line, its file, line number and template id (`--lines`). */
  readonly lines?: boolean;
  readonly timestamp?: string;
  readonly instancePattern?: string;
  readonly headerPattern?: string;
  readonly columns?: ColumnOverrides;
  readonly year?: number;
}

export interface TemplatesIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/**
 * `distalyze templates GOOD BAD [-o rules.yaml]`: the templates mined from raw
 * logs of both classes (as the analysis mines them with no translator), with
 * their line counts per class and an example line each, and optionally a
 * starter rules file that reproduces them: the bridge from "no translator" to
 * "my own translator". Returns the exit code (0, or 2 on an input error).
 */
export async function runTemplates(opts: TemplatesOptions, io: TemplatesIo): Promise<number> {
  try {
    if (opts.good === '-' || opts.bad === '-') throw new InputError('templates are mined in a pass over the files; standard input (-) cannot be used');
    const outOption = opts.outOption ?? '--out';
    const guard = await OutputGuard.before([[outOption, opts.out]]);
    const [{ mineTemplates, untimedNotes }, { rulesYaml, OTLP_RULES_NOTE }] = await Promise.all([import('../parse/templates/index.js'), import('../parse/templates/rules.js')]);
    const files = { good: await listInputFiles(opts.good, 'good'), bad: await listInputFiles(opts.bad, 'bad') };
    // The rules file must not replace a log, nor land in a class directory, where the next run would read it as one.
    await guard.against([...files.good, ...files.bad], (['good', 'bad'] as const)
      .filter((c) => !(files[c].length === 1 && files[c][0]!.path === opts[c]))
      .map((c) => [`${c} class directory`, opts[c]]));
    const model = await mineTemplates(files, {
      ...(opts.timestamp !== undefined ? { timestamp: opts.timestamp } : {}),
      ...(opts.instancePattern !== undefined ? { instancePattern: opts.instancePattern } : {}),
      ...(opts.headerPattern !== undefined ? { headerPattern: opts.headerPattern } : {}),
      ...(opts.columns !== undefined ? { columns: opts.columns } : {}),
      ...(opts.year !== undefined ? { year: opts.year } : {}),
    });
    if (opts.out === '-') {
      await writeStream(io.stdout, rulesYaml(model));
      return 0;
    }
    if (opts.out !== undefined) {
      const yaml = rulesYaml(model);
      const files = new StagedOutputs();
      try {
        await files.stage(opts.out, yaml, outOption);
        await files.commit();
      } finally {
        await files.discard();
      }
      // Writing a file: its summary only (the listing is `distalyze templates` without -o).
      const rules = yaml.split('\n').filter((l) => /^ {2}- (?:match:|\{ match:)/.test(l)).length;
      const leftOut = yaml.split('\n').filter((l) => l.startsWith('  # left out:')).length;
      const note = yaml.includes(`# ${OTLP_RULES_NOTE}`) ? `${OTLP_RULES_NOTE} (see its comments)\n` : '';
      await writeStream(io.stdout, `${renderTemplates(model).split('\n')[0]}\nwrote ${opts.out}: ${rules} rules${leftOut > 0 ? `, ${leftOut} templates left out (see its comments)` : ''}\n${note}`);
      return 0;
    }
    if (opts.lines === true) {
      const { lineTemplates } = await import('../parse/templates/index.js');
      const files = [...await listInputFiles(opts.good, 'good'), ...await listInputFiles(opts.bad, 'bad')];
      let text = 'file\tline\ttemplate\n';
      for (const file of files) {
        for (const [line, id] of await lineTemplates(model, file)) text += `${file.path}\t${line}\t${id < 0 ? '-' : id}\n`;
      }
      await writeStream(io.stdout, text);
      return 0;
    }
    await writeStream(io.stdout, renderTemplates(model, untimedNotes(model)));
    return 0;
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    io.stderr.write(formatUserError(err.message, err.hint));
    return 2;
  }
}

/** The templates as text: counts per class, the event name, its states, an example line. Most frequent first. */
/** `notes`: the mining's counted lines without a time of their own (templates/index.ts untimedNotes). */
export function renderTemplates(model: TemplateModel, notes: readonly string[] = []): string {
  const lines: string[] = [];
  const instances = model.instance === null ? 'one file = one instance'
    : model.instance.kind === 'host' ? (podPrefixed(model) ? 'instances: the pod of kubectl\'s --prefix' : 'instances: the syslog host')
      : model.instance.kind === 'column' ? `instances: column '${model.instance.name}'` : `instances: /${model.instance.pattern}/`;
  const formats = [...new Set(Object.values(model.files).map((f) => f.format))].join(', ');
  const tables = [...new Set(Object.values(model.files).flatMap((f) => (f.table === undefined ? [] : [describeTable(f.table)])))];
  const headers = [...new Set(Object.values(model.files).flatMap((f) => (f.textHeader === undefined ? [] : [describeHeader(f.textHeader)])))];
  lines.push(`${model.templates.length} templates from ${model.lines} ${linesWord(model)} (${tables.length > 0 ? tables.join(' | ') : `timestamps: ${formats}`}; ` +
    `${headers.map((h) => `${h}; `).join('')}${instances})`);
  lines.push(...notes.map((l) => l.trimStart()));
  lines.push('');
  lines.push(`${'good'.padStart(9)} ${'bad'.padStart(9)}  template`);
  const order = [...model.templates].sort((a, b) => (b.counts.good + b.counts.bad) - (a.counts.good + a.counts.bad) || a.id - b.id);
  for (const t of order) {
    const mark = t.counts.good === 0 ? '  (bad only)' : t.counts.bad === 0 ? '  (good only)' : '';
    lines.push(`${String(t.counts.good).padStart(9)} ${String(t.counts.bad).padStart(9)}  ${clip(t.name, 200)}${mark}`);
    const states = t.states.filter((s) => s !== '');
    if (states.length > 0) lines.push(`${' '.repeat(21)}states: ${states.map((s) => `#${s.slice(s.lastIndexOf('#') + 1)}`).join(', ')}`);
    lines.push(`${' '.repeat(21)}e.g. ${clip(t.example, 200)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** `distalyze templates`: add the subcommand to the main program. */
export function registerTemplatesCommand(program: Command, io: TemplatesIo, setCode: (code: number) => void): Command {
  return program
    .command('templates')
    .description('show the templates mined from raw logs (counts per class, an example each); -o writes a starter rules file')
    .argument('<good>', 'raw logs of acceptable performance: a directory or a file')
    .argument('<bad>', 'raw logs with the problem: a directory or a file')
    .option('-o, --out <file>', 'write a rules file (YAML) that reproduces the templates, for --translator (- for stdout); prints only a summary')
    .option('--lines', 'print each input line\'s file, line number and template id (tab-separated; - for a line no template takes)')
    .option('--timestamp <format>', 'the timestamp format (default: detected per file)')
    .option('--instance-pattern <regex>', 'a regex whose group id (or 1) names instances')
    .option('--header-pattern <regex>', 'text logs: the header after the timestamp, groups level and entity (default: learned)')
    .option('--message-column <name>', 'tables: the column (or field) holding the message (default: detected)')
    .option('--entity-column <name>', 'tables: the column naming the component (default: detected)')
    .option('--trace-column <name>', 'tables: the request/trace id column naming instances (default: detected)')
    .option('--time-column <name>', 'tables: the time column (default: detected)')
    .option('--year <yyyy>', 'year for timestamps that have none (syslog)')
    .action(async (good: string, bad: string, raw: { out?: string; lines?: boolean; timestamp?: string; instancePattern?: string; headerPattern?: string; year?: string; messageColumn?: string; entityColumn?: string; traceColumn?: string; timeColumn?: string }, cmd: Command) => {
      if (raw.year !== undefined && !/^\d{4}$/.test(raw.year)) {
        io.stderr.write(formatUserError(`--year must be a year such as 2026, not '${raw.year}'`));
        setCode(2);
        return;
      }
      setCode(await runTemplates({
        good, bad,
        ...(raw.out !== undefined ? { out: raw.out, outOption: typedOption(cmd, '--out', '-o') } : {}),
        ...(raw.lines === true ? { lines: true } : {}),
        ...(raw.timestamp !== undefined ? { timestamp: raw.timestamp } : {}),
        ...(raw.instancePattern !== undefined ? { instancePattern: raw.instancePattern } : {}),
        ...(raw.headerPattern !== undefined ? { headerPattern: raw.headerPattern } : {}),
        ...(columnOverrides(raw) !== undefined ? { columns: columnOverrides(raw) } : {}),
        ...(raw.year !== undefined ? { year: Number(raw.year) } : {}),
      }, io));
    });
}
