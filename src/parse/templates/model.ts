/**
 * What template mining gives (index.ts mineTemplates): the templates and the model a translator is built from
 * (translate.ts), plain data shared by the miner, the translator, the rules writer and the reading's workers.
 */
import type { RecordEnds } from '../files.js';
import type { ClassName } from '../records.js';
import type { LineTranslator } from '../translator.js';
import type { MiningSummary } from './describe.js';
import type { DrainParameters } from './drain.js';
import type { LineReplay } from './replay.js';

export interface MinedTemplate {
  readonly id: number;
  /** Masked tokens, `<*>` for parameters. */
  readonly tokens: readonly string[];
  /** The event variable's name: the template, shortened (see templateName). */
  readonly name: string;
  /** Per token position: the state variable's name, or '' when the position is not a numeric parameter. */
  readonly states: readonly string[];
  /** Lines of each class that formed it in the mining pass. */
  readonly counts: Readonly<Record<ClassName, number>>;
  /** Its first line. */
  readonly example: string;
  /** Whether that line had its own timestamp (else it continued an earlier line, as a stack trace does). */
  readonly timed: boolean;
  /** A log statement its lines name (`Class#line`, `File.java:12`: layout.ts readHead), not mined: tokens = [it]. */
  readonly statement?: boolean;
}

/** A mining's result: what MiningSummary (describe.ts) holds, and how to translate with it. */
export interface TemplateModel extends MiningSummary {
  readonly parameters: DrainParameters;
  readonly year: number;
  readonly templates: readonly MinedTemplate[];
  /**
   * A mined message held a quoted value with a blank (`tag="View Lock"`, mask.ts tokenize): the rules file then
   * reads a parameter as the tokenizer does (rules.ts), else as a run of non-blanks, which is shorter to read.
   * Absent (false) for a model built by hand.
   */
  readonly quoted?: boolean;
  /** What the mining pass hands to the translating pass (see LineReplay). Absent for a model built by hand. */
  readonly replay?: LineReplay;
  /**
   * With one file one instance (no instance rule): per file path, the earliest and latest times of the lines that
   * become records (those whose key matches a template), as the mining pass read them. A large file is then
   * summarized as it is read (features/streamed.ts), and Dref known before the reading (read.ts). Absent for a
   * model built by hand, and for a file with no such line.
   */
  readonly ends?: Readonly<Record<string, RecordEnds>>;
}

/** A translator built from mined templates, with the model it was built from (for workers and `distalyze templates`). */
export interface MinedTranslator extends LineTranslator {
  readonly model: TemplateModel;
  /** One line for the user: what was mined. */
  summary(): string;
  /** The template id of the line translated last (−1: it took none). */
  lastTemplate(): number;
  /** The template ids of that line's rows (an OTLP/JSON line's log records; else one, lastTemplate). */
  lastTemplates(): readonly number[];
}
