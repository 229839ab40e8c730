/**
 * Regexes and name templates of a rules translator, compiled once at load time
 * so that translating a line allocates as little as possible.
 */

/** A user regex, compiled, with what templates may refer to. */
export interface UserRegex {
  readonly re: RegExp;
  /** Named capture groups. */
  readonly names: ReadonlySet<string>;
  /** Number of capture groups (named ones included). */
  readonly count: number;
  /**
   * A literal every match contains ('' when none could be derived): checking it
   * with `includes` first lets most lines skip the regex engine altogether.
   */
  readonly literal: string;
}

/**
 * Compile a regex written by a user. Accepts two habits from Perl and Python:
 * `(?P<name>…)` groups and a leading `(?i)` for case-insensitive matching.
 * Unicode mode (the `u` flag) is on only when the regex needs it (`\p{…}`,
 * `\u{…}`): it is stricter about escapes that users copy from other dialects.
 * Throws an Error (message: why it is bad) that the caller places.
 */
export function compileUserRegex(source: string): UserRegex {
  let flags = '';
  let text = source.replace(/\(\?P<(?=[A-Za-z_])/g, '(?<');
  if (text.startsWith('(?i)')) {
    flags = 'i';
    text = text.slice(4);
  }
  if (/\\[pPu]\{/.test(text)) flags += 'u';
  let re: RegExp;
  try {
    re = new RegExp(text, flags);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // V8: "Invalid regular expression: /src/: Unterminated group" → keep the reason.
    throw new Error(`bad regex '${source}': ${message.slice(message.lastIndexOf(': ') + 2)}`);
  }
  const count = (new RegExp(`${text}|`, flags).exec('') as RegExpExecArray).length - 1;
  const names = new Set<string>();
  for (const m of text.matchAll(/\(\?<([A-Za-z_$][\w$]*)>/g)) names.add(m[1] as string);
  return { re, names, count, literal: flags.includes('i') ? '' : requiredLiteral(text) };
}

/**
 * The longest run of literal characters that every match of `source` contains,
 * or '' when unsure. Conservative: alternation at the top level gives up,
 * groups and classes end a run, and a quantified character is dropped.
 */
export function requiredLiteral(source: string): string {
  let best = '';
  let run = '';
  const endRun = (): void => {
    if (run.length > best.length) best = run;
    run = '';
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (c === '\\') {
      const n = source[i + 1] ?? '';
      if (/[A-Za-z0-9]/.test(n)) {
        // \d \w \b \x41 \u{…} \p{…} \k<…> \1: not literal text; skip the whole escape.
        endRun();
        i += escapeLength(source, i);
        continue;
      }
      run += n;
      i += 2;
    } else if (c === '[' || c === '(') {
      endRun();
      i = skipGroupOrClass(source, i);
      if (i < 0) return '';
    } else if (c === '|') {
      return '';
    } else if ('*+?{'.includes(c)) {
      run = run.slice(0, -1); // the quantified character may be absent
      endRun();
      i++;
      if (c === '{') while (i < source.length && source[i - 1] !== '}') i++;
      continue;
    } else if ('.^$)]}'.includes(c)) {
      endRun();
      i++;
      continue;
    } else {
      run += c;
      i++;
    }
    // A quantifier right after an atom applies to it.
    const q = source[i];
    if (q === '*' || q === '?' || q === '{' || q === '+') {
      run = run.slice(0, -1);
      endRun();
    }
  }
  endRun();
  return best;
}

function escapeLength(source: string, i: number): number {
  const n = source[i + 1];
  const brace = (open: string, close: string): number => {
    if (source[i + 2] !== open) return 2;
    const end = source.indexOf(close, i + 3);
    return end === -1 ? source.length - i : end - i + 1;
  };
  switch (n) {
    case 'x': return 4;
    case 'u': return source[i + 2] === '{' ? brace('{', '}') : 6;
    case 'c': return 3;
    case 'k': return brace('<', '>');
    case 'p': case 'P': return brace('{', '}');
    default: {
      let k = 2;
      if (n !== undefined && n >= '0' && n <= '9') while (/[0-9]/.test(source[i + k] ?? '')) k++;
      return k;
    }
  }
}

/** Index after the group or character class opening at `i` (and any quantifier after it), or -1. */
function skipGroupOrClass(source: string, i: number): number {
  let depth = 0;
  let inClass = false;
  for (let k = i; k < source.length; k++) {
    const c = source[k];
    if (c === '\\') { k++; continue; }
    if (inClass) {
      if (c === ']') {
        inClass = false;
        if (depth === 0) return k + 1;
      }
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) return k + 1;
    }
  }
  return -1;
}

/**
 * A name template such as `Writer_${worker}_run`: `${name}` is a named group,
 * `${1}` a numbered one. A group that took no part in the match renders as ''.
 */
export class Template {
  /** Alternating literal text (even indexes) and group references (odd): the rule's group, or `{ header }`'s. */
  private readonly parts: ReadonlyArray<string | number | { readonly header: string }>;
  /** The text itself when the template refers to no group. */
  readonly constant: string | null;
  /** Whether it refers to a group of the rule's own regex (else `test` suffices for the rule). */
  readonly usesGroups: boolean;

  /**
   * Throws an Error when the template names a group the regex does not have. A name the regex lacks may be a
   * named group of the rules file's `header:` regex (read once per line, before the rules).
   */
  constructor(readonly text: string, regex: UserRegex, header: UserRegex | null = null) {
    const parts: Array<string | number | { header: string }> = [];
    let last = 0;
    let own = false;
    for (const m of text.matchAll(/\$\{([^}]*)\}/g)) {
      const ref = (m[1] as string).trim();
      parts.push(text.slice(last, m.index));
      if (header !== null && !/^\d+$/.test(ref) && !regex.names.has(ref) && header.names.has(ref)) {
        parts.push({ header: ref });
      } else {
        parts.push(groupRef(ref, regex));
        own = true;
      }
      last = (m.index as number) + m[0].length;
    }
    parts.push(text.slice(last));
    this.parts = parts;
    this.usesGroups = own;
    this.constant = parts.length > 1 ? null : text;
  }

  /** The name for the rule's match `m` (null when the rule's groups were not needed) and the header's `h`. */
  render(m: RegExpExecArray | null, h: RegExpExecArray | null = null): string {
    if (this.constant !== null) return this.constant;
    const parts = this.parts;
    let out = parts[0] as string;
    for (let i = 1; i < parts.length; i += 2) {
      const ref = parts[i] as string | number | { header: string };
      out += (typeof ref === 'object' ? h?.groups?.[ref.header] : m === null ? undefined : groupValue(m, ref)) ?? '';
      out += parts[i + 1] as string;
    }
    return out;
  }
}

/** A group named by a template or a `value:` key: a name, or a number for a numbered group. */
export function groupRef(ref: string, regex: UserRegex): string | number {
  if (/^\d+$/.test(ref)) {
    const n = Number(ref);
    if (n > regex.count) throw new Error(`refers to group ${n}, but /${regex.re.source}/ has ${regex.count} group${regex.count === 1 ? '' : 's'}`);
    return n;
  }
  if (!regex.names.has(ref)) {
    const known = [...regex.names].map((n) => `'${n}'`).join(', ');
    throw new Error(`refers to group '${ref}', but /${regex.re.source}/ has ${known ? `only ${known}` : 'no named groups'}`);
  }
  return ref;
}

export function groupValue(m: RegExpExecArray, ref: string | number): string | undefined {
  return typeof ref === 'number' ? m[ref] : m.groups?.[ref];
}
