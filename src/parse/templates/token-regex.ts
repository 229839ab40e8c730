/**
 * How a rules file's regexes read a mined template's parameters (rules.ts for text logs, table-rules.ts for tables),
 * the way mask.ts tokenize reads a token.
 */
import { quotedEnd, WILDCARD } from './mask.js';

/**
 * (When a mined message held a quoted value with a blank: TemplateModel.quoted.) A token's characters as mask.ts
 * tokenize reads them: no blank, but a quoted value after `=` (quotedEnd: a `"` that a later unescaped `"` closes)
 * whole, spaces included. QUOTED is such a value; an `=` before one takes it.
 */
export const QUOTED = '"(?:[^"\\\\]|\\\\.)*"';
export const TOKEN_CHAR = `(?:[^\\s=]|=${QUOTED}|=(?!${QUOTED}))`;
/**
 * A parameter inside a quoted value: up to its closing quote, escapes whole (a lone `\` last: the template's `"`
 * after it may be an escaped one, when the masked word held `\"`: `err="card <*>" declined"` from `\"4242\"`).
 */
export const IN_QUOTES = '(?:[^"\\\\]|\\\\.|\\\\)*?';

/**
 * The regex of a numeric parameter, its number captured as group `p<i>`, as mask.ts numericValue reads it: a time
 * unit inside the group (`850ms`, `123µs` in either code point, Go's `2m3.5s`; the rules translator reads it in
 * seconds, duration.ts), any other unit after it (`45MB` and `45msec` capture 45).
 */
export function numberRegex(i: number): string {
  return `(?<p${i}>[-+]?(?:(?:\\d+h)?(?:\\d+m)?(?:\\d+s)?\\d+(?:\\.\\d+)?(?:ns|us|\\u00b5s|\\u03bcs|ms|s)(?![A-Za-z%])|\\d+(?:\\.\\d+)?))[A-Za-z%]*`;
}

/**
 * The regex of a parameter of a template's token (not a numeric one): any run of the token's characters (a whole
 * token: at least one); inside a quoted value of the token (`msg="took <*> ms"`), anything up to its closing quote;
 * right after `=`, a quoted value when one opens there.
 */
export function parameterRegexes(tok: string): string[] {
  const quoted: Array<[number, number]> = [];
  for (let i = 0; i < tok.length; i++) {
    if (tok.charCodeAt(i) !== 34) continue;
    const end = quotedEnd(tok, i, tok.length);
    if (end > i) quoted.push([i, end]);
    i = end;
  }
  const out: string[] = [];
  for (let at = tok.indexOf(WILDCARD); at !== -1; at = tok.indexOf(WILDCARD, at + WILDCARD.length)) {
    if (tok === WILDCARD) out.push(`${TOKEN_CHAR}+?`);
    else if (quoted.some(([a, b]) => a < at && at < b)) out.push(IN_QUOTES);
    else if (tok.charCodeAt(at - 1) === 61 /* = */) out.push(`(?:${QUOTED}|(?!${QUOTED}))${TOKEN_CHAR}*?`);
    // (A parameter inside a token may be empty: `()` is masked `(<*>)`, mask.ts.)
    else out.push(`${TOKEN_CHAR}*?`);
  }
  return out;
}

/** A parameter where no mined message held a quoted value with a blank: non-blanks (a whole token: at least one). */
export function plainParameters(tok: string): string[] {
  // (A parameter inside a token may be empty: `()` is masked `(<*>)`, mask.ts.)
  return tok.split(WILDCARD).slice(1).map(() => (tok === WILDCARD ? '\\S+?' : '\\S*?'));
}
