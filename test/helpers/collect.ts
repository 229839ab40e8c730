/** Run in-memory dlog texts through the record parser and the feature collector (no files). */
import { FeatureCollector } from '../../src/features/collector.js';
import { buildFeatureSet, type FeatureOptions, type FeatureResult } from '../../src/features/index.js';
import type { FeatureSet, FeatureType, LogKind } from '../../src/features/types.js';
import { parseDlogLine } from '../../src/parse/dlog.js';
import type { InputFile } from '../../src/parse/files.js';

export interface Texts {
  readonly good: readonly string[];
  readonly bad: readonly string[];
}

export function collectTexts(texts: Texts): FeatureCollector {
  const collector = new FeatureCollector();
  for (const c of ['good', 'bad'] as const) {
    texts[c].forEach((text, i) => {
      const file: InputFile = { path: `${c}/${c}-${i}.dlog`, relativePath: `${c}-${i}.dlog`, gzip: false, size: text.length };
      collector.beginFile(file, c);
      text.split('\n').forEach((line, n) => parseDlogLine(line, collector, file.path, n + 1));
      collector.endFile(file);
    });
    collector.finishClass();
  }
  return collector;
}

export function featuresOf(texts: Texts, options: Partial<FeatureOptions> = {}): FeatureResult {
  return buildFeatureSet(collectTexts(texts), { weight: { mode: 'none' }, ...options });
}

/** The column of one (kind, feature, variable), as a plain array (NaN for missing). */
export function column(fs: FeatureSet, kind: LogKind, feature: FeatureType, variable: string): number[] {
  const table = fs.tables.find((t) => t.kind === kind && t.feature === feature);
  if (table === undefined) throw new Error(`no table ${kind} ${feature}`);
  const v = table.variables.indexOf(variable);
  if (v < 0) throw new Error(`no variable ${variable} in ${kind} ${feature}`);
  return Array.from(table.columns[v] as Float64Array);
}

/** dlog text from lines written with spaces for readability: "E 10 Start" → "E\t10\tStart". */
export function dlog(...lines: string[]): string {
  return lines.map((l) => l.replace(/ /g, '\t')).join('\n');
}
