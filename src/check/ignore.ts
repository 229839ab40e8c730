import { InputError } from '../errors.js';

/**
 * `--ignore PATTERN` (repeatable): a glob matched against the whole variable
 * name, `*` any run of characters, `?` one character, everything else literal
 * (case-sensitive, as variable names are). `config_*` ignores
 * `config_version`; `*version*` any name holding "version".
 */
export function ignoreMatcher(patterns: readonly string[]): (name: string) => boolean {
  const res = patterns.map((p) => {
    if (p === '') throw new InputError('--ignore needs a pattern (a glob such as config_* or *version*)');
    return new RegExp(`^${p.split('').map((c) => (c === '*' ? '[\\s\\S]*' : c === '?' ? '[\\s\\S]' : c.replace(/[.+^${}()|[\]\\/-]/g, '\\$&'))).join('')}$`, 'u');
  });
  return (name) => res.some((re) => re.test(name));
}
