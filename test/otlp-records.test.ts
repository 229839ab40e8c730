/**
 * OTLP/JSON log records read as parsed flat records (src/parse/otlp.ts; RowReader.readRecord, split.ts splitRecord)
 * against the plain path they replace, kept here as the oracle: each record made JSON Lines text (otlpLines) and
 * read by the JSON Lines path (splitLine, translateLine unhinted). Held equal on the export fixture and on generated
 * OTLP (every AnyValue type, kvlist bodies, records with no time, cut lines), as templates-replay.test.ts holds the
 * replay's fast paths equal to the plain ones.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InputFile } from '../src/parse/files.js';
import { otlpLines, otlpRecords } from '../src/parse/otlp.js';
import type { LineContext, RecordSink } from '../src/parse/records.js';
import { mineTemplates, templateTranslator, type TemplateModel } from '../src/parse/templates/index.js';
import { fileState, splitLine, splitRecord, type FileState } from '../src/parse/templates/split.js';
import { makeTimeFormat } from '../src/parse/translators/time-formats.js';
import { mulberry32 } from '../src/stats/prng.js';
import { textSink } from './helpers/records.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'raw', 'exports', 'otlp', 'good', 'logs.jsonl');

/**
 * OTLP/JSON lines as a collector's file exporter writes them, varied: attributes of every AnyValue type (int as a
 * string and as a number, double, bool, bytes, array, kvlist), kvlist bodies with and without a message field,
 * records timed by timeUnixNano, by observedTimeUnixNano only, or not at all, severityNumber alone, empty ids,
 * attribute keys and a top-level field (spanId) first seen past the first lines, and a line in 15 cut short.
 */
function generated(seed: number, n: number): string[] {
  const rnd = mulberry32(seed);
  const hex = (k: number): string => Array.from({ length: k }, () => Math.floor(rnd() * 16).toString(16)).join('');
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const str = (s: string): unknown => ({ stringValue: s });
  const values: Array<() => unknown> = [
    () => str(pick(['ok', 'two words', 'a=b', '', 'quote " in'])), () => ({ intValue: String(Math.floor(rnd() * 500)) }), () => ({ intValue: Math.floor(rnd() * 9) }),
    () => ({ doubleValue: Math.round(rnd() * 1000) / 10 }), () => ({ boolValue: rnd() < 0.5 }), () => ({ bytesValue: 'AQID' }),
    () => ({ arrayValue: { values: [str('a'), { intValue: 1 }] } }), () => ({ kvlistValue: { values: [{ key: 'k', value: str('v') }] } }), () => ({}),
  ];
  const keys = ['http.response.status_code', 'db.rows', 'user', 'thread.name', 'log.file.path', 'code.lineno', 'exception.stacktrace', 'k8s.pod.name', 'retries'];
  let t = 1796637600;
  const lines: string[] = [];
  for (let l = 0; l < n; l++) {
    const services = ['api', 'db', 'cart'].filter(() => rnd() < 0.7);
    const line = JSON.stringify({
      resourceLogs: services.map((s) => ({
        resource: { attributes: [{ key: 'service.name', value: str(s) }, { key: 'host.name', value: str(`node-${Math.floor(rnd() * 3)}`) }] },
        scopeLogs: [{
          scope: { name: `com.example.${s}` },
          logRecords: Array.from({ length: 1 + Math.floor(rnd() * 6) }, () => {
            t += rnd();
            const ns = `${Math.floor(t)}${String(Math.floor((t % 1) * 1e9)).padStart(9, '0')}`;
            const time = rnd();
            const attributes = keys.filter(() => rnd() < 0.4).map((key) => ({ key, value: pick(values)() }));
            // (A key first seen past the sample: its field is no column of the layout.)
            if (l > 60 && rnd() < 0.3) attributes.push({ key: `late.${pick(['a', 'b'])}`, value: pick(values)() });
            const body = rnd() < 0.25
              ? { kvlistValue: { values: [...(rnd() < 0.8 ? [{ key: pick(['msg', 'message']), value: str(`cache ${pick(['hit', 'miss'])} ${Math.floor(rnd() * 100)}`) }] : []), { key: 'size', value: { intValue: Math.floor(rnd() * 64) } }, { key: 'level', value: str('debug') }] } }
              : rnd() < 0.05 ? pick(values)() : str(`${pick(['GET', 'POST'])} /${s}/${Math.floor(rnd() * 50)} took ${Math.floor(rnd() * 90)} ms`);
            return {
              ...(time < 0.7 ? { timeUnixNano: ns } : time < 0.8 ? { timeUnixNano: '0' } : {}), ...(time < 0.95 ? { observedTimeUnixNano: ns } : {}),
              ...(rnd() < 0.5 ? { severityText: pick(['INFO', 'Warn', 'ERROR', '']) } : { severityNumber: pick([9, 13, 17, '5', 'SEVERITY_NUMBER_WARN2']) }),
              body, attributes, traceId: rnd() < 0.9 ? hex(32) : '', spanId: l > 60 && rnd() < 0.9 ? hex(16) : '',
            };
          }),
        }],
      })),
    });
    lines.push(l % 15 === 14 ? line.slice(0, Math.floor(line.length / 2)) : line);
  }
  return lines;
}

/** A file of lines, as an InputFile. */
function fileOf(lines: readonly string[]): InputFile {
  const path = join(mkdtempSync(join(tmpdir(), 'distalyze-otlp-records-')), 'logs.jsonl');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return { path, relativePath: 'logs.jsonl', size: Buffer.byteLength(`${lines.join('\n')}\n`), gzip: false } as InputFile;
}

const INPUTS: Array<[string, () => string[]]> = [
  ['the export fixture', () => readFileSync(FIXTURE, 'utf8').split('\n').filter((l) => l !== '')],
  ['generated OTLP', () => generated(7, 120)],
];

/** What a split leaves in a file's state. */
function snapshot(ok: boolean, s: FileState): unknown {
  return ok ? { t: s.t, message: s.message, host: s.host, timed: s.timed, start: s.start, row: { ...s.row }, head: { ...s.head }, parts: { ...s.parts } } : false;
}

describe('OTLP log records read as parsed records, as their JSON Lines text is read (the oracle)', () => {
  for (const [name, lines] of INPUTS) {
    it(`${name}: every record splits as its text does`, async () => {
      const input = lines();
      const file = fileOf(input);
      const model = await mineTemplates({ good: [file], bad: [] }, { year: 2026 });
      const layout = model.files[file.path]!;
      expect(layout.table?.otlp).toBe(true);
      const format = makeTimeFormat(layout.format, { year: 2026 });
      const fast = fileState(layout, format);
      const plain = fileState(layout, format);
      let records = 0;
      let split = 0;
      input.forEach((line, i) => {
        for (const r of otlpRecords(line) ?? []) {
          records++;
          const want = snapshot(splitLine(JSON.stringify(r), i + 1, plain), plain);
          expect(snapshot(splitRecord(r, fast), fast)).toEqual(want);
          if (want !== false) split++;
        }
      });
      // (Records with no time at all are rows that cannot be read, in both.)
      if (name === 'the export fixture') expect([records, split]).toEqual([96, 96]);
      else expect([records > 300, split < records, split > records * 0.8]).toEqual([true, true, true]);
    });

    for (const instancePattern of [undefined, '"traceId":"([0-9a-f]+)"']) {
      it(`${name}: translated records, mapped lines and templates per record equal the plain path's${instancePattern === undefined ? '' : ' (--instance-pattern, matched on the record\'s text)'}`, async () => {
        const input = lines();
        const file = fileOf(input);
        const model = await mineTemplates({ good: [file], bad: [] }, { year: 2026, ...(instancePattern === undefined ? {} : { instancePattern }) });
        // (Every template's example is a record's JSON Lines text, made where it is kept.)
        const texts = new Set(input.flatMap((l) => otlpLines(l) ?? [l]));
        expect(model.templates.filter((t) => !texts.has(t.example))).toEqual([]);
        const fast = translate(model, file, input, false);
        expect(fast).toEqual(translate(model, file, input, true));
        // (Not vacuous: instances (by traceId, or the pattern), events, states, and lines not mapped where some are cut.)
        const kinds = new Set(fast.map((r) => (/^\d+ (true|false)/.exec(r)?.[1] ?? r[0])));
        expect([...kinds].sort()).toEqual(['I', 'E', 'S', ...(name === 'generated OTLP' ? ['false'] : []), 'true'].sort());
      });
    }
  }
});

/** Every record the model's translator gives, in order, with each line's mapped flag and template ids; `plain`: the oracle. */
function translate(model: TemplateModel, file: InputFile, lines: readonly string[], plain: boolean): string[] {
  const translator = templateTranslator(model);
  const out: string[] = [];
  const sink = textSink(out);
  const ctx = { file: file.path, relativePath: file.relativePath, className: 'good' as const };
  translator.beginFile?.(ctx, sink);
  // (translateLine's fourth argument, false: a line read as it is, not as a LogsData line: the JSON Lines path.)
  const unhinted = translator.translateLine as (line: string, ctx: LineContext, sink: RecordSink, hinted: boolean) => boolean;
  lines.forEach((line, i) => {
    if (!plain) {
      out.push(`${i + 1} ${translator.translateLine(line, { ...ctx, line: i + 1 }, sink)} ${translator.lastTemplates().join(',')}`);
      return;
    }
    const ids: number[] = [];
    let mapped = true;
    const records = otlpLines(line) ?? [line];
    for (const r of records) {
      if (!unhinted(r, { ...ctx, line: i + 1 }, sink, false)) mapped = false;
      ids.push(translator.lastTemplate());
    }
    out.push(`${i + 1} ${mapped && records.length > 0} ${ids.join(',')}`);
  });
  return out;
}
