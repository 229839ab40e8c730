import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { InputError } from '../../errors.js';
import { describeFsError } from '../files.js';
import type { Translator } from '../translator.js';
import { loadExecutableTranslator } from './executable.js';
import { loadModuleTranslator } from './module.js';
import { parseRulesTranslator } from './rules.js';

export interface TranslatorOptions {
  /** Year for timestamps without one (syslog): --year. Default: the rules file's `year`, else the current year. */
  readonly year?: number;
}

const RULES = new Set(['.yaml', '.yml', '.json']);
const MODULES = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts']);

/** Whether `--translator FILE` is a rules file (loadTranslator): declarative, so it can translate a file's ends alone. */
export function isRulesTranslator(path: string): boolean {
  return RULES.has(extname(path).toLowerCase());
}

/**
 * Load `--translator FILE`, its form picked by the file (SPEC §1):
 * `.yaml/.yml/.json` → rules; `.js/.mjs/.cjs/.ts/.mts` → module; anything else
 * runnable (execute permission, a `#!` line, or .py/.pl/.awk/.sh/.rb) → executable.
 * Every problem is an InputError naming the translator's path.
 */
export async function loadTranslator(path: string, options: TranslatorOptions = {}): Promise<Translator> {
  let info;
  try {
    info = await stat(path);
  } catch (err) {
    throw new InputError(`cannot read translator: ${describeFsError(err)}`, path);
  }
  if (!info.isFile()) throw new InputError('translator is not a file', path);
  const ext = extname(path).toLowerCase();
  if (isRulesTranslator(path)) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      throw new InputError(`cannot read translator: ${describeFsError(err)}`, path);
    }
    return parseRulesTranslator(path, text, options);
  }
  if (MODULES.has(ext)) return loadModuleTranslator(path);
  const executable = await loadExecutableTranslator(path);
  if (executable === null) {
    throw new InputError('not a translator: expected a rules file (.yaml, .yml, .json), a module (.js, .mjs, .cjs, .ts, .mts), or an executable program', path,
      undefined, 'make a script runnable with chmod +x and a #! line');
  }
  return executable;
}
