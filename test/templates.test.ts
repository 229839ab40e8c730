/**
 * Template mining for raw logs (src/parse/templates): masking, the Drain tree,
 * timestamp detection per format, the request-id rule, and the error for a
 * file with no timestamp. Expected values are worked out by hand beside each case.
 */
import { mkdtempSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { listInputFiles } from '../src/parse/files.js';
import { Drain, DEFAULT_DRAIN_PARAMETERS, skeleton } from '../src/parse/templates/drain.js';
import { groupMessages, mineTemplates, templateName, templateTranslator } from '../src/parse/templates/index.js';
import { firstLines, looksRaw } from '../src/parse/templates/raw.js';
import { IdFieldCounter } from '../src/parse/templates/instances.js';
import { generalized, hasKey, keyPlan, maskToken, numericValue, readByPlan, tokenize, walkMessage } from '../src/parse/templates/mask.js';
import { detectTimestamp } from '../src/parse/templates/timestamps.js';
import { makeTimeFormat } from '../src/parse/translators/time-formats.js';

describe('masking', () => {
  it.each([
    ['12', '<*>'], ['-3.5', '<*>'], ['850ms,', '<*>,'], ['0x1f', '<*>'], ['deadbeefcafe', '<*>'],
    ['10.0.0.1:50010', '<*>'], ['/10.251.42.84:50010', '<*>'], ['[Writer-1]', '[<*>]'], ['port=16020,', 'port=<*>,'],
    ['blk_-1608999687919862906', '<*>'], ['123e4567-e89b-12d3-a456-426614174000', '<*>'],
    ['abcdefab-cdef-abcd-efab-cdefabcdefab', '<*>'], ['/usr/local/bin/backup', '<*>'], ['s3://bucket/key', '<*>'],
    ['backup[2000]:', 'backup[<*>]:'], ['(uid=0)', '(uid=<*>)'], ['region=usertable,r0', 'region=<*>'],
    // words stay
    ['started', 'started'], ['Flushed', 'Flushed'], ['org.apache.hadoop.hbase.regionserver.HRegion:', 'org.apache.hadoop.hbase.regionserver.HRegion:'],
    ['responseTooSlow', 'responseTooSlow'], ['key=value', 'key=value'], ['/', '/'],
    // host names under a common top-level domain are values; dotted class names stay
    ['ns.example.com', '<*>'], ['[www.cuhk.edu.hk]', '[<*>]'], ['example.com:', '<*>:'], ['wsi.edu.pl', '<*>'],
    ['org.apache.Foo', 'org.apache.Foo'], ['index.html', 'index.html'], ['done.', 'done.'],
    // month and weekday names are parts of dates; an empty pair is a missing value
    ['Jun', '<*>'], ['Fri', '<*>'], ['June', 'June'], ['()', '(<*>)'], ["''", "'<*>'"], ['(', '('],
    // a word padded by a run of dots or colons before a number keeps the word; one separator may be part of the value
    ['instruction......0', 'instruction......<*>'], ['dcbf.........0', 'dcbf.........<*>'], ['onTouchEvent::1,', 'onTouchEvent::<*>,'],
    ['depth....-2.5ms', 'depth....<*>'], ['core.2275', '<*>'], ['wpad:80', '<*>'], ['QQ.10018', '<*>'], ['x......0y1', '<*>'],
    // host names may hold capitals; a comparison operator is not a key's `=`
    ['"authorMacBook-Pro.local"', '"<*>"'], ['Server.example.com', '<*>'], ['com.apple.Foo', 'com.apple.Foo'],
    ['H:[V:0x7f8e(38)]-(>=S(8))-[W:0x7f9a]', '<*>]'],
    // a scoped name is masked part by part: the method stays when the class holds a digit
    ['AirPort_Brcm43xx::syncPowerState:', '<*>::syncPowerState:'], ['en0::IO80211Interface::postMessage', '<*>::<*>::postMessage'],
    ['IdoTransportMgr::SendPacket(IdoUdpMgr*,', 'IdoTransportMgr::SendPacket(IdoUdpMgr*,'], ['fe80::1ff:fe23', '<*>::<*>'], ['::1', '::<*>'], ['count>=5', '<*>'], ['a!=b2', '<*>'], ['count=5', 'count=<*>'],
    // a key's value that is a language's word for no value is a missing value; elsewhere, or as part of a word, a word
    ['ws=null,', 'ws=<*>,'], ['data=null)]', 'data=<*>)]'], ['err=<nil>', 'err=<*>'], ['parent=None', 'parent=<*>'],
    ['x=undefined', 'x=<*>'], ['id=NULL', 'id=<*>'], ['null', 'null'], ['None', 'None'], ['x=nullable', 'x=nullable'], ['(null)', '(null)'],
  ])('%s → %s', (token, masked) => {
    expect(maskToken(token)).toBe(masked);
  });

  it('reads numbers with units as values, ids as not numbers', () => {
    expect(numericValue('123MB')).toBe(123);
    expect(numericValue('850ms,')).toBe(0.85); // a time unit: seconds (test/duration.test.ts)
    expect(numericValue('size=3.5s')).toBe(3.5);
    expect(numericValue('queue=-4')).toBe(-4);
    expect(numericValue('42%')).toBe(42);
    expect(numericValue('rs-2')).toBeNaN();
    expect(numericValue('0x1f')).toBeNaN();
    expect(numericValue('0xff')).toBeNaN();
    expect(numericValue('10.0.0.1')).toBeNaN();
    expect(numericValue('12abc3')).toBeNaN();
  });

  it('tokenizes on runs of spaces and tabs, or on commas', () => {
    expect(tokenize('  INFO  [main]\tStarting  ', false)).toEqual(['INFO', '[main]', 'Starting']);
    expect(tokenize('a,,b,', true)).toEqual(['a', '', 'b', '']);
  });

  it('a quoted value after `=` is one token, spaces included; an escaped quote does not close it; elsewhere quotes are characters', () => {
    expect(tokenize('acquire lock=23, tag="View Lock", name=x', false)).toEqual(['acquire', 'lock=23,', 'tag="View Lock",', 'name=x']);
    expect(tokenize('msg="a \\"b c\\" d"x y', false)).toEqual(['msg="a \\"b c\\" d"x', 'y']);
    expect(tokenize('a="x y"b="z  w" c', false)).toEqual(['a="x y"b="z  w"', 'c']);
    // Not after `=`, or never closed (a cut line): split at blanks as any token.
    expect(tokenize('said "hello there" to', false)).toEqual(['said', '"hello', 'there"', 'to']);
    expect(tokenize('tag="View Lock', false)).toEqual(['tag="View', 'Lock']);
    expect(tokenize('a="x y",b', true)).toEqual(['a="x y"', 'b']);
  });

  it('a quoted value with spaces is masked word by word, spaces kept', () => {
    expect(maskToken('tag="View Lock",')).toBe('tag="View Lock",');
    expect(maskToken('msg="took 12 ms"')).toBe('msg="took <*> ms"');
    expect(maskToken('key="cart of  user 33"')).toBe('key="cart of  user <*>"');
    expect(maskToken('path="/var/log/app x"')).toBe('path="<*> x"');
  });

  it('reads integers as Number() does: signs, -0, leading zeros, 16+ digits rounded', () => {
    expect(Object.is(numericValue('-0'), -0)).toBe(true);
    expect(numericValue('+7')).toBe(7);
    expect(numericValue('007')).toBe(7);
    expect(numericValue('123456789012345')).toBe(123456789012345); // 15 digits: exact
    expect(numericValue('9007199254740993')).toBe(9007199254740992); // 2^53 + 1 rounds to 2^53 (IEEE 754 nearest even)
    expect(numericValue('0.1')).toBe(0.1);
    expect(numericValue('12.')).toBeNaN(); // an empty fraction (the `.` is read although edge punctuation)
    expect(numericValue('0x')).toBeNaN();
  });

  /**
   * numericValue as it was before reading tokens in place (commit 94eea3f), with time units read in seconds
   * (Go's `[Nh][Nm][Ns]N[.N]unit` by a regex, the last number through Number()): the reference for the walk.
   */
  function numericValueBefore(token: string): number {
    const edge = (c: number): boolean => '[](){}<>,;:"\'.'.includes(String.fromCharCode(c)) && !Number.isNaN(c);
    const eq = token.indexOf('=');
    let from = eq === -1 ? 0 : eq + 1;
    let to = token.length;
    while (from < to && edge(token.charCodeAt(from))) from++;
    while (to > from && edge(token.charCodeAt(to - 1))) to--;
    let i = from;
    let c = token.charCodeAt(i);
    if (c === 45 || c === 43) c = token.charCodeAt(++i);
    const digitsStart = i;
    while (c >= 48 && c <= 57) c = token.charCodeAt(++i);
    if (i === digitsStart) return NaN;
    if (c === 46) {
      const f = ++i;
      c = token.charCodeAt(i);
      while (c >= 48 && c <= 57) c = token.charCodeAt(++i);
      if (i === f) return NaN;
    }
    const numberEnd = i;
    const time = /^([-+]?)(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?(\d+(?:\.\d+)?)(ns|us|\u00b5s|\u03bcs|ms|s)$/.exec(token.slice(from, to));
    if (time !== null) {
      const [, sign, h, m, s, last, unit] = Array.from(time) as Array<string | undefined>;
      const shift = ({ s: 0, ms: 3, us: 6, '\u00b5s': 6, '\u03bcs': 6, ns: 9 } as Record<string, number>)[unit as string] as number;
      const seconds = Number(h ?? 0) * 3600 + Number(m ?? 0) * 60 + Number(s ?? 0) + Number(`${last as string}e-${shift}`);
      return sign === '-' ? -seconds : seconds;
    }
    while (i < to && ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 37)) c = token.charCodeAt(++i);
    if (i !== to) return NaN;
    if (token.charCodeAt(digitsStart) === 48 && (token.charCodeAt(digitsStart + 1) | 32) === 120) return NaN;
    return Number(token.slice(from, numberEnd));
  }

  it('walkMessage and readByPlan: the numbers of tokenize\'s tokens at the positions; readByPlan and hasKey check the key', () => {
    // Seeded random messages over an alphabet of digits, signs, units, separators and edge punctuation.
    // (Rounds from 3000 on add quotes and backslashes: quoted values after `=`, tokenize.)
    const plain = '0123456789000.-+=xX,%ms ()[]:;\tabhnu\u00b5';
    let seed = 7;
    const rand = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    const shifts = new Int32Array(64);
    for (let round = 0; round < 4500; round++) {
      const alphabet = round < 3000 ? plain : `${plain}="="\\`;
      const comma = round % 3 === 0;
      let message = '';
      for (let i = 0, n = rand(40); i < n; i++) message += alphabet[rand(alphabet.length)];
      if (round >= 3000) {
        const at = rand(message.length + 1);
        message = `${message.slice(0, at)}="${message.slice(at)}`;
      }
      const tokens = tokenize(message, comma);
      const positions = Int32Array.from(tokens.map((_, i) => i).filter(() => rand(2) === 0).concat(tokens.length + 1));
      const expected = Array.from(positions, (i) => (i < tokens.length ? numericValueBefore(tokens[i] as string) : NaN));
      expect(Array.from(tokens, (t) => numericValue(t))).toEqual(Array.from(tokens, (t) => numericValueBefore(t)));
      const walked = new Float64Array(positions.length);
      walkMessage(message, comma, positions, walked);
      expect(Array.from(walked)).toEqual(expected);
      // The plan of the message's key reads it, and any message of the same key (other digits), as tokenize would.
      const key = message.replace(/[0-9]+/g, '0');
      const out = new Float64Array(positions.length);
      expect(readByPlan(message, keyPlan(key, comma, positions), out, shifts)).toBe(true);
      expect(Array.from(out)).toEqual(expected);
      expect(hasKey(message, key.split('0'))).toBe(true);
      const other = message.replace(/[0-9]+/g, () => String(rand(3) === 0 ? 0 : rand(100000)));
      const otherTokens = tokenize(other, comma);
      expect(readByPlan(other, keyPlan(key, comma, positions), out, shifts)).toBe(true);
      expect(hasKey(other, key.split('0'))).toBe(true);
      expect(Array.from(out)).toEqual(Array.from(positions, (i) => (i < otherTokens.length ? numericValueBefore(otherTokens[i] as string) : NaN)));
      // A key that differs anywhere (one character changed, longer, shorter) is seen.
      if (key.length > 0) {
        const at = rand(key.length);
        const changed = key.slice(0, at) + (key[at] === 'a' ? 'b' : 'a') + key.slice(at + 1);
        expect(readByPlan(message, keyPlan(changed, comma, positions), out, shifts)).toBe(false);
        expect(readByPlan(message, keyPlan(key.slice(0, -1), comma, positions), out, shifts)).toBe(false);
        expect(readByPlan(message, keyPlan(key.slice(1), comma, positions), out, shifts)).toBe(false);
        for (const wrong of [changed, key.slice(0, -1), key.slice(1)]) expect(hasKey(message, wrong.split('0'))).toBe(false);
      }
      expect(hasKey(message, `${key}a`.split('0'))).toBe(false);
      expect(hasKey(message, `${key}0`.split('0'))).toBe(false);
      expect(readByPlan(message, keyPlan(`${key}a`, comma, positions), out, shifts)).toBe(false);
      expect(readByPlan(message, keyPlan(`${key}0`, comma, positions), out, shifts)).toBe(false);
    }
  });
});

describe('Drain tree', () => {
  const toks = (s: string): string[] => s.split(' ').map(maskToken);

  it('merges messages that differ in parameters, keeps different lengths and prefixes apart', () => {
    const d = new Drain();
    const a = d.add(toks('Receiving block blk_1 src: /10.0.0.1:5 dest: /10.0.0.2:5'));
    const b = d.add(toks('Receiving block blk_2 src: /10.0.0.3:5 dest: /10.0.0.4:5'));
    expect(b.id).toBe(a.id);
    const c = d.add(toks('Receiving block blk_2 src: /10.0.0.3:5'));
    expect(c.id).not.toBe(a.id); // a different token count is a different branch
    const e = d.add(toks('Deleting block blk_2 file /data/x'));
    expect(new Set([a.id, c.id, e.id]).size).toBe(3);
    expect(d.clusters[a.id]?.tokens.join(' ')).toBe('Receiving block <*> src: <*> dest: <*>');
  });

  it('similarity threshold: 3 of 6 equal tokens (0.5 ≥ 0.4) merge; 2 of 6 (0.33) do not', () => {
    const d = new Drain({ ...DEFAULT_DRAIN_PARAMETERS, minWordVariants: 1, maxTokenDifferences: Infinity }); // plain Drain
    // depth 4: the first 2 tokens route; all share "job done".
    const a = d.add(['job', 'done', 'a', 'b', 'c', 'd']);
    const b = d.add(['job', 'done', 'x', 'y', 'c', 'd']); // same: job done c d = 4/6
    expect(b.id).toBe(a.id);
    expect(d.clusters[a.id]?.tokens).toEqual(['job', 'done', '<*>', '<*>', 'c', 'd']);
    const c = d.add(['job', 'done', 'p', 'q', 'r', 's']); // same (wildcards not counted): job done = 2/6 < 0.4
    expect(c.id).not.toBe(a.id);
  });

  it('a word becomes a parameter only after minWordVariants distinct words (begin/end pairs stay two events)', () => {
    const d = new Drain(); // minWordVariants 3
    // depth 4: INFO and Compaction route to one leaf; the 3rd token differs (3 of 4 equal: similar enough for Drain).
    const started = d.add(['INFO', 'Compaction', 'started,', 'region=<*>']);
    const completed = d.add(['INFO', 'Compaction', 'completed,', 'region=<*>']);
    expect(completed.id).not.toBe(started.id);
    const aborted = d.add(['INFO', 'Compaction', 'aborted,', 'region=<*>']); // the third word: now a parameter
    expect(aborted.id).toBe(started.id);
    expect(d.clusters[started.id]?.tokens).toEqual(['INFO', 'Compaction', '<*>', 'region=<*>']);
    // ... and the template the second word started is absorbed into it: one event, whatever came first.
    expect(d.resolve(completed.id)).toBe(started.id);
    expect(d.live().map((c) => c.id)).toEqual([started.id]);
    expect(d.match(['INFO', 'Compaction', 'completed,', 'region=<*>'])?.id).toBe(started.id);
  });

  it('absorbing is order-independent: words seen before the threshold do not stay templates of their own', () => {
    const msg = (user: string): string[] => ['Failed', 'password', 'for', user, 'from', '<*>', 'port', '<*>', '<*>'];
    const d = new Drain();
    const ids = ['root', 'uucp', 'root', 'uucp', 'ftp', 'uucp', 'git', 'root'].map((u) => d.resolve(d.add(msg(u)).id));
    // root and uucp start two templates (2 words < 3); ftp makes the position a parameter and both become one.
    expect(new Set(ids.slice(4)).size).toBe(1);
    expect(new Set(ids.map((id) => d.resolve(id))).size).toBe(1);
    expect(d.live()).toHaveLength(1);
    expect(d.live()[0]?.tokens).toEqual(msg('<*>'));
    // A template differing elsewhere (a literal where the winner has one too) is not absorbed.
    const other = new Drain();
    const a = other.add(['session', 'opened', 'for', 'root']);
    const b = other.add(['session', 'closed', 'for', 'uucp']);
    other.add(['session', 'opened', 'for', 'ftp']);
    other.add(['session', 'opened', 'for', 'git']);
    expect(other.resolve(b.id)).toBe(b.id);
    expect(other.resolve(a.id)).toBe(a.id);
  });

  it('a word against a variable is two variants: it stays a word until the position has shown minWordVariants', () => {
    const d = new Drain();
    const open = (proto: string): string[] => ['<*>', 'open', 'through', 'proxy', '<*>', proto];
    const https = d.add(open('HTTPS'));
    d.add(open('HTTPS'));
    const socks = d.add(open(maskToken('SOCKS5'))); // `<*>`: a variable, but one variant so far
    expect(socks.id).not.toBe(https.id);
    expect(d.clusters[https.id]?.tokens).toEqual(open('HTTPS'));
    expect(d.add(open('HTTPS')).id).toBe(https.id);
    expect(d.add(open(maskToken('SOCKS4'))).id).toBe(socks.id);
  });

  it('variables keyed by different words are two variants; differing only in punctuation, one form', () => {
    const d = new Drain();
    const opened = d.add(['session', 'opened', 'for', 'root', 'by', '(uid=<*>)']);
    const login = d.add(['session', 'opened', 'for', 'root', 'by', 'LOGIN(uid=<*>)']);
    expect(login.id).not.toBe(opened.id);
    const plain = new Drain();
    const a = plain.add(['took', 'time', '[<*>]']);
    expect(plain.add(['took', 'time', '<*>']).id).toBe(a.id);
  });

  it('a partly masked token against a bare variable is one variable form (Thunderbird `synchronized to LOCAL(0),`)', () => {
    const sync = (peer: string, stratum: string): string[] => toks(`synchronized to ${peer}, stratum ${stratum}`);
    // `10.100.20.250,` masks to `<*>,` (no letters), `LOCAL(0),` to `LOCAL(<*>),`: one difference, one form.
    const d = new Drain();
    const ip = d.add(sync('10.100.20.250', '3'));
    expect(d.add(sync('10.100.18.250', '3')).id).toBe(ip.id);
    expect(d.add(sync('LOCAL(0)', '10')).id).toBe(ip.id);
    expect(d.add(sync('10.100.16.250', '2')).id).toBe(ip.id);
    expect(d.live().map((c) => c.tokens)).toEqual([['synchronized', 'to', '<*>', 'stratum', '<*>']]);
    // In the other order too: the partly masked one first.
    const r = new Drain();
    const local = r.add(sync('LOCAL(0)', '10'));
    expect(r.add(sync('10.100.20.250', '3')).id).toBe(local.id);
    expect(r.live()).toHaveLength(1);
    // Two partly masked tokens keyed by different words stay two variants (as `(uid=<*>)` / `LOGIN(uid=<*>)`).
    const k = new Drain();
    expect(k.add(sync('LOCAL(0)', '10')).id).not.toBe(k.add(sync('REMOTE(1)', '10')).id);
  });

  it('a word padded to its number stays a word: two of them are two events (BGL `caused by dcbf.........0`)', () => {
    const d = new Drain();
    const store = (op: string): string[] => toks(`data store interrupt caused by ${op}`);
    const dcbf = d.add(store('dcbf.........0'));
    const icbi = d.add(store('icbi.........0'));
    expect(icbi.id).not.toBe(dcbf.id);
    expect(d.add(store('dcbf.........0')).id).toBe(dcbf.id);
    expect(d.clusters[icbi.id]?.tokens).toEqual(['data', 'store', 'interrupt', 'caused', 'by', 'icbi.........<*>']);
  });

  it('a dotted name does not route: three of them before the same text are one event (Mac `com.apple.<job>: …`)', () => {
    const d = new Drain();
    const job = (name: string): string[] => [`${name}:`, 'scheduler_evaluate_activity', 'told', 'me', 'to', 'run', 'this', 'job'];
    const heartbeat = d.add(job('com.apple.icloud.fmfd.heartbeat'));
    // Two names: two variants, still two templates (a word is a parameter only after minWordVariants).
    const safari = d.add(job('com.apple.Safari.SafeBrowsing.Update'));
    expect(safari.id).not.toBe(heartbeat.id);
    // The third name makes the position a parameter; the templates it subsumes are absorbed.
    const daily = d.add(job('com.apple.CacheDelete.daily'));
    expect(d.resolve(heartbeat.id)).toBe(daily.id);
    expect(d.resolve(safari.id)).toBe(daily.id);
    expect(d.live().map((c) => c.tokens)).toEqual([['<*>', 'scheduler_evaluate_activity', 'told', 'me', 'to', 'run', 'this', 'job']]);
    expect(d.match(job('com.apple.other.job'))?.id).toBe(daily.id);
    // A plain first word still routes: three verbs before the same text stay three templates.
    const w = new Drain();
    const ids = ['Starting', 'Stopping', 'Restarting'].map((verb) => w.add([verb, 'the', 'scheduler', 'job', 'now']).id);
    expect(new Set(ids).size).toBe(3);
  });

  it('words joining a parameter count as its variants: templates holding one of them are absorbed', () => {
    const d = new Drain();
    const invalid = (user: string): string[] => ['Invalid', 'user', user, 'from', '<*>'];
    const webmaster = d.add(invalid('webmaster'));
    d.add(invalid('webmaster'));
    const general = d.add(invalid(maskToken('test9'))); // word vs variable: a template of its own
    expect(general.id).not.toBe(webmaster.id);
    expect(d.resolve(webmaster.id)).toBe(webmaster.id);
    // admin joins the parameter (ties go to more wildcards); the position has now shown 3 variants
    // (webmaster, a variable, admin): webmaster's template is absorbed.
    expect(d.add(invalid('admin')).id).toBe(general.id);
    expect(d.resolve(webmaster.id)).toBe(general.id);
    expect(d.add(invalid('webmaster')).id).toBe(general.id);
    expect(d.live().map((c) => c.tokens)).toEqual([invalid('<*>')]);
  });

  it('a message differing in words at 2 positions starts its own template (shared header tokens do not merge events)', () => {
    const d = new Drain();
    // 3 of 6 tokens equal (INFO [<*>] request_id=<*>): 0.5 ≥ 0.4, Drain would merge them.
    const a = d.add(['INFO', '[<*>]', 'request_id=<*>', 'GET', '<*>', 'received']);
    const b = d.add(['INFO', '[<*>]', 'request_id=<*>', 'response', 'sent', 'status=<*>']);
    const c = d.add(['INFO', '[<*>]', 'request_id=<*>', 'auth', 'ok', 'user=alice']);
    expect(new Set([a.id, b.id, c.id]).size).toBe(3);
    expect(d.clusters[a.id]?.tokens).toEqual(['INFO', '[<*>]', 'request_id=<*>', 'GET', '<*>', 'received']);
  });

  it('a key holding no value (`ws=null`) joins the lines where it holds one: logcat wakelock releases are one event', () => {
    // Android's PowerManagerService writes `ws=null` for a wakelock without a WorkSource and `ws=WorkSource{uid}`
    // with one. Worked out: lines 1–2 differ at tag and name (2 positions) and start two templates; line 3 makes
    // tag's third word (a parameter); line 4 joins template 2 (name android" as there); line 5 makes name's third
    // word, and template 1, now differing from template 2 only at its parameters, is absorbed. With `ws=null` a
    // word, line 4 differed from template 2 at ws (2 variants: no parameter) and started a third.
    const release = (lock: number, tag: string, name: string, ws: string, uid: number): string =>
      `release:lock=${lock}, flg=0x0, tag="${tag}", name=${name}", ws=${ws}, uid=${uid}, pid=${uid + 700}`;
    const lines = [
      release(11, 'View Lock', 'com.android.systemui', 'null', 10037),
      release(12, '*launch*', 'android', 'WorkSource{10113}', 1000),
      release(13, 'WindowManager', 'android', 'WorkSource{10113}', 1000),
      release(14, 'SCREEN_FROZEN', 'android', 'null', 1000),
      release(15, 'RILJ_ACK_WL', 'com.android.phone', 'null', 1001),
    ];
    const { ids, templates } = groupMessages(lines);
    expect(new Set(ids).size).toBe(1);
    expect(templates[ids[0] as number]?.join(' ')).toBe('release:lock=<*>, flg=<*>, tag=<*> name=<*> ws=<*> uid=<*>, pid=<*>');
  });

  it('words of one key become a parameter keeping its key (`user=<*>`): any value of that key, never another key', () => {
    const login = (user: string): string[] => ['login', 'ok', 'method=password', user];
    for (const indexed of [true, false]) {
      const d = new Drain(DEFAULT_DRAIN_PARAMETERS, { indexed });
      const ann = d.add(login('user=ann'));
      const bob = d.add(login('user=bob'));
      expect(bob.id).not.toBe(ann.id); // 2 words < minWordVariants
      const ada = d.add(login('user="Ada Lovelace"'));
      // The third word: `user=<*>`, not `<*>`; the templates of the first two are absorbed into it.
      expect(d.live().map((c) => c.tokens)).toEqual([login('user=<*>')]);
      const id = d.resolve(ada.id);
      expect([d.resolve(ann.id), d.resolve(bob.id)]).toEqual([id, id]);
      // Any value of the key joins and matches, a masked number too; another key, or no key, does not match.
      expect(d.add(login('user=linus')).id).toBe(id);
      expect(d.match(login('user=eve'))?.id).toBe(id);
      expect(d.match(login('user=<*>'))?.id).toBe(id);
      expect(d.match(login('users=eve'))).toBeNull();
      expect(d.match(login('host=eve'))).toBeNull();
      expect(d.match(login('eve'))).toBeNull();
      // As the translator rebuilds it (restore, then match).
      const r = new Drain(DEFAULT_DRAIN_PARAMETERS, { indexed });
      r.restore(login('user=<*>'));
      expect(r.match(login('user=eve'))?.id).toBe(0);
      expect(r.match(login('host=eve'))).toBeNull();
      // Words of different keys make a bare parameter.
      const k = new Drain(DEFAULT_DRAIN_PARAMETERS, { indexed });
      for (const w of ['user=ann', 'host=web1', 'role=admin']) k.add(login(w));
      expect(k.live().map((c) => c.tokens)).toEqual([login('<*>')]);
    }
    // A key is a name: `(uid=` is not one (the `)` would be lost).
    expect([generalized('user=ann', 'user=bob'), generalized('user=ann', 'host=bob'), generalized('(uid=a)', '(uid=b)'), generalized('ann', 'bob')])
      .toEqual(['user=<*>', '<*>', '<*>', '<*>']);
  });

  it('match: every literal token equal, the most specific template; no learning', () => {
    const d = new Drain();
    d.add(['open', 'file', '<*>']);
    d.restore(['open', '<*>', '<*>']);
    expect(d.match(['open', 'file', '<*>'])?.id).toBe(0);
    expect(d.match(['open', 'dir', '<*>'])?.id).toBe(1);
    expect(d.match(['close', 'file', '<*>'])).toBeNull();
    expect(d.clusters).toHaveLength(2);
  });
});

describe('timestamp detection', () => {
  const year = 2026;
  it.each([
    ['log4j', '2026-11-20 10:00:01,123 INFO [main] Start', 'yyyy-MM-dd HH:mm:ss,SSS', 0, Date.UTC(2026, 10, 20, 10, 0, 1, 123) / 1000],
    ['ISO-8601 with zone', '2026-11-20T10:00:01.5+01:00 start', 'iso8601', 0, Date.UTC(2026, 10, 20, 9, 0, 1, 500) / 1000],
    ['syslog', 'Nov  9 23:58:01 web-1 kernel: up', 'syslog', 0, Date.UTC(2026, 10, 9, 23, 58, 1) / 1000],
    ['yyMMdd HHmmss (HDFS)', '081109 203615 148 INFO dfs.DataNode: x', 'yyMMdd HHmmss', 0, Date.UTC(2008, 10, 9, 20, 36, 15) / 1000],
    ['epoch seconds', '1117838570 R02 RAS KERNEL INFO x', 'epoch-s', 0, 1117838570],
    ['epoch milliseconds', '1795168800278 gateway start', 'epoch-ms', 0, 1795168800.278],
    ['HH:mm:ss.SSS', '10:00:01.250 worker started', 'HH:mm:ss.SSS', 0, 36001.25],
    ['yy/MM/dd HH:mm:ss (Spark)', '17/06/09 20:10:40 INFO executor.Executor: x', 'yy/MM/dd HH:mm:ss', 0, Date.UTC(2017, 5, 9, 20, 10, 40) / 1000],
    ['Apache error log, in brackets', '[Sun Dec 04 04:47:44 2005] [notice] workerEnv.init() ok', 'EEE MMM d HH:mm:ss yyyy', 0, Date.UTC(2005, 11, 4, 4, 47, 44) / 1000],
    ['BGL: epoch in the 2nd field', '- 1117838570 2005.06.03 R02-M1 RAS KERNEL INFO x', 'epoch-s', 1, 1117838570],
  ])('%s', (_what, line, format, field, t) => {
    const d = detectTimestamp('x.log', [line, line], false, year);
    expect(d).toEqual({ format, field, comma: false });
    const f = makeTimeFormat(d.format, { year });
    const start = line.indexOf(line.trim().split(/\s+/)[field] as string) + (line.trim().split(/\s+/)[field]?.startsWith('[') ? 1 : 0);
    expect(f.parse(line, start)).toBeCloseTo(t, 6);
  });

  it('CSV: the column holding epoch milliseconds', () => {
    expect(detectTimestamp('a.csv', ['cdab89241000,1795168800278,gateway,request,start,'], true, year)).toEqual({ format: 'epoch-ms', field: 1, comma: true });
  });

  it('no timestamp: an error naming the file and the formats tried, with a hint', () => {
    let err: unknown;
    try {
      detectTimestamp('logs/app.log', ['hello world', 'no time here', 'pid 148 started'], false, year);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toBe('logs/app.log: no timestamp format found in the first 3 lines (tried ISO-8601 and log4j (yyyy-MM-dd HH:mm:ss,SSS), ' +
      'yyyy/MM/dd HH:mm:ss, yy/MM/dd HH:mm:ss, dd/MMM/yyyy:HH:mm:ss Z, EEE MMM d HH:mm:ss yyyy, syslog (MMM d HH:mm:ss), MM-dd HH:mm:ss.SSS, ' +
      'yyMMdd HHmmss, epoch seconds or milliseconds, MM.dd HH:mm:ss, HH:mm:ss.SSS)');
    expect((err as InputError).hint).toBe('name it with --timestamp FORMAT (e.g. --timestamp "dd.MM.yyyy HH:mm:ss"), or write a translator (--translator)');
  });

  it('--timestamp forces a format; a file without it is an error naming the file', () => {
    expect(detectTimestamp('a.log', ['20.11.2026 10:00:01 start'], false, year, 'dd.MM.yyyy HH:mm:ss')).toEqual({ format: 'dd.MM.yyyy HH:mm:ss', field: 0, comma: false });
    expect(() => detectTimestamp('a.log', ['2026-11-20 10:00:01 start'], false, year, 'dd.MM.yyyy HH:mm:ss'))
      .toThrow("a.log: no timestamp in the format 'dd.MM.yyyy HH:mm:ss' in the first 1 lines");
  });
});

describe('instances by request id', () => {
  it('a req= field that recurs names instances; a field on too few lines or never recurring does not', () => {
    const c = new IdFieldCounter();
    for (let i = 0; i < 20; i++) c.add(`10:00:0${i % 10}.000 step ${i % 2 ? 'a' : 'b'} req=r${Math.floor(i / 4)} user=u${i}`, null);
    const rule = c.rule();
    expect(rule?.kind).toBe('pattern');
    const re = new RegExp((rule as { pattern: string }).pattern.replace('(?i)', ''), 'i');
    expect(re.exec('x req=r7 y')?.groups?.id).toBe('r7');
    expect(re.exec('x REQ: r8, y')?.groups?.id).toBe('r8');

    const unique = new IdFieldCounter(); // every value once: not an instance id
    for (let i = 0; i < 20; i++) unique.add(`step trace_id=t${i}`, null);
    expect(unique.rule()).toBeNull();

    const rare = new IdFieldCounter(); // on 1 line in 20 (< 10 %)
    for (let i = 0; i < 20; i++) rare.add(i === 0 ? 'x TraceID: abc' : 'plain line', null);
    expect(rare.rule()).toBeNull();
  });

  it('counts merged from per-file counters give the rule of one counter over all lines (files in order)', () => {
    // File 1: req= on 2 lines in 10 with one value (qualifies only together with file 2), a CSV id column at 2;
    // file 2: req= on 3 lines, values r1/r2, the same column name at 0 (the first file's index is kept).
    const file1 = ['a req=r1', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j req=r1'];
    const file2 = ['k req=r2', 'l req=r2', 'm req=r1'];
    const whole = new IdFieldCounter();
    const merged = new IdFieldCounter();
    for (const lines of [file1, file2]) {
      const one = new IdFieldCounter();
      for (const line of lines) {
        whole.add(line, null);
        one.add(line, null);
      }
      merged.merge(one.counts());
    }
    expect(whole.rule()?.kind).toBe('pattern');
    expect(merged.rule()).toEqual(whole.rule());
    const alone = new IdFieldCounter(); // file 1 alone: one value on its lines, no id
    for (const line of file1) alone.add(line, null);
    expect(alone.rule()).toBeNull();

    const columns = new IdFieldCounter();
    const a = new IdFieldCounter();
    for (const v of ['x', 'x', 'y']) a.add(`t,msg,${v}`, { column: 2, name: 'req_id' });
    const b = new IdFieldCounter();
    for (const v of ['y', 'z']) b.add(`${v},t,msg`, { column: 0, name: 'req_id' });
    columns.merge(a.counts());
    columns.merge(b.counts());
    expect(columns.rule()).toEqual({ kind: 'column', column: 2, name: 'req_id' });
  });

  it('TraceID:, request-id and x-request-id are id fields too', () => {
    for (const key of ['TraceID:', 'request-id=', 'x-request-id:', 'correlation_id=']) {
      const c = new IdFieldCounter();
      for (let i = 0; i < 10; i++) c.add(`event ${key} id${i % 3}`, null);
      expect(c.rule()?.kind).toBe('pattern');
    }
  });
});

describe('mining and translating', () => {
  function tree(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-tpl-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  }

  it('templates over both classes: a message rare in one class still shares its template', async () => {
    const dir = tree({
      'good/a.log': '2026-11-20 10:00:00,000 User 12 not found\n2026-11-20 10:00:01,000 User 13 not found\n',
      'bad/a.log': '2026-11-20 10:00:00,000 User 99 not found\n2026-11-20 10:00:02,000 done\n',
    });
    const classes = { good: await listInputFiles(join(dir, 'good'), 'good'), bad: await listInputFiles(join(dir, 'bad'), 'bad') };
    const model = await mineTemplates(classes);
    expect(model.templates.map((t) => [t.name, t.counts.good, t.counts.bad])).toEqual([
      ['User <*> not found', 2, 1],
      ['done', 0, 1],
    ]);
    expect(model.templates[0]?.states).toEqual(['', 'User <*> not found #1', '', '']);
    // The mining pass's template per line, for the translating pass (lines whose text is unchanged).
    // Keys in order of first occurrence over both classes; per line, 1 + its key's index.
    expect(model.replay?.keys).toEqual([' User 0 not found', ' done']); // the message: the line after its timestamp
    expect(Array.from(model.replay?.templates ?? [])).toEqual([0, 1]);
    expect(Array.from(model.replay?.lines[classes.good[0]!.path] ?? [])).toEqual([1, 1]);
    expect(Array.from(model.replay?.lines[classes.bad[0]!.path] ?? [])).toEqual([1, 2]);
    // The translator: an event per line and a state per numeric parameter.
    const translator = templateTranslator(model);
    const recs: string[] = [];
    const sink = { instance: (id: string) => recs.push(`I ${id}`), event: (t: number, n: string) => recs.push(`E ${t} ${n}`), state: (t: number, n: string, v: number) => recs.push(`S ${t} ${n} ${v}`) };
    const file = classes.bad[0]!;
    const ctx = { file: file.path, relativePath: file.relativePath, className: 'bad' as const };
    translator.beginFile?.(ctx, sink);
    expect(translator.translateLine('2026-11-20 10:00:00,000 User 99 not found', { ...ctx, line: 1 }, sink)).toBe(true);
    // Line 2 of the file is `done`; this text differs, so its replayed template is not used: it is keyed anew.
    expect(translator.translateLine('User 7 not found', { ...ctx, line: 2 }, sink)).toBe(true); // no timestamp: continues line 1
    expect(translator.translateLine('2026-11-20 10:00:03,000 something else entirely', { ...ctx, line: 3 }, sink)).toBe(false);
    expect(recs).toEqual([
      `E 1795168800 User <*> not found`,
      `S 1795168800 User <*> not found #1 99`,
      `E 1795168800 User <*> not found`,
      `S 1795168800 User <*> not found #1 7`,
    ]);
    // The file changed between the passes (rewritten: another size): line 1 with other digits keeps its key
    // (replayed; the number read is the new one), line 1 with another template's text and line 2 with the first
    // template's are keyed anew, each line split anew (its time its own: the heads kept are not used).
    writeFileSync(file.path, '2026-11-20 10:00:00,000 User 5 not found\n2026-11-20 10:00:01,000 done\n2026-11-20 10:00:02,000 done\n');
    recs.length = 0;
    translator.beginFile?.(ctx, sink);
    expect(translator.translateLine('2026-11-20 10:00:00,000 User 5 not found', { ...ctx, line: 1 }, sink)).toBe(true);
    expect(translator.translateLine('2026-11-20 10:00:01,000 done', { ...ctx, line: 1 }, sink)).toBe(true);
    expect(translator.translateLine('2026-11-20 10:00:02,000 User 6 not found', { ...ctx, line: 2 }, sink)).toBe(true);
    expect(translator.translateLine('2026-11-20 10:00:03,000 done twice', { ...ctx, line: 2 }, sink)).toBe(false);
    expect(recs).toEqual([
      `E 1795168800 User <*> not found`,
      `S 1795168800 User <*> not found #1 5`,
      `E 1795168801 done`,
      `E 1795168802 User <*> not found`,
      `S 1795168802 User <*> not found #1 6`,
    ]);
  });

  it('each file\'s ends: the earliest and latest times of its lines that become records; none with instances named in files', async () => {
    const dir = tree({
      // A first line with no timestamp (no record), a line earlier than the one before it, a trace continuing the last.
      'good/a.log': 'starting\n2026-11-20 10:00:05,000 User 12 not found\n2026-11-20 10:00:01,500 User 13 not found\n' +
        '2026-11-20 10:00:09,250 done\n\tat Main.run(Main.java:12)\n',
      'bad/a.log': '2026-11-20 10:00:00,000 User 99 not found req=7\n',
    });
    const classes = { good: await listInputFiles(join(dir, 'good'), 'good'), bad: await listInputFiles(join(dir, 'bad'), 'bad') };
    const model = await mineTemplates(classes);
    expect(model.ends).toEqual({
      [classes.good[0]!.path]: { first: 1795168801.5, last: 1795168809.25 },
      [classes.bad[0]!.path]: { first: 1795168800, last: 1795168800 },
    });
    expect((await mineTemplates(classes, { instancePattern: 'req=(\\d+)' })).ends).toBeUndefined();
  });

  it('messages that share the key cache\'s slot (first digit, the character before it, the last character) keep their own keys', async () => {
    // Six keys, one slot (4 entries remembered): lines of each key in turn, 5 each; the digits change from line to line.
    const messages = ['a1 z', 'a1 b z', 'a1 b c z', 'a1 b c d z', 'a1 b c d e z', 'a1 b c d e f z'];
    let text = '';
    for (let j = 0; j < 30; j++) text += `2026-11-20 10:00:${String(j).padStart(2, '0')},000 ${(messages[j % 6] as string).replace('1', String(j))}\n`;
    const dir = tree({ 'good/a.log': text, 'bad/a.log': text });
    const classes = { good: await listInputFiles(join(dir, 'good'), 'good'), bad: await listInputFiles(join(dir, 'bad'), 'bad') };
    const model = await mineTemplates(classes);
    expect(model.templates.map((t) => [t.name, t.counts.good, t.counts.bad])).toEqual(messages.map((m) => [m.replace('a1', '<*>'), 5, 5]));
    expect(model.replay?.keys).toEqual(messages.map((m) => ` ${m.replace('1', '0')}`));
    expect(Array.from(model.replay?.lines[classes.good[0]!.path] ?? [])).toEqual(Array.from({ length: 30 }, (_, j) => (j % 6) + 1));
  });

  it('the replayed keys give the records keying every line gives (raw fixtures: log4j, syslog, trace CSV)', async () => {
    for (const set of ['log4j', 'syslog', 'trace-csv']) {
      const root = join('fixtures/raw', set);
      const classes = { good: await listInputFiles(join(root, 'good'), 'good'), bad: await listInputFiles(join(root, 'bad'), 'bad') };
      const model = await mineTemplates(classes, { year: 2026 });
      expect(Object.keys(model.replay?.lines ?? {}).length).toBe(classes.good.length + classes.bad.length);
      const translate = (m: typeof model): string[] => {
        const translator = templateTranslator(m);
        const recs: string[] = [];
        const sink = { instance: (id: string) => recs.push(`I ${id}`), event: (t: number, n: string) => recs.push(`E ${t} ${n}`), state: (t: number, n: string, v: number) => recs.push(`S ${t} ${n} ${Object.is(v, -0) ? '-0' : v}`) };
        for (const className of ['good', 'bad'] as const) {
          for (const file of classes[className]) {
            const ctx = { file: file.path, relativePath: file.relativePath, className };
            translator.beginFile?.(ctx, sink);
            readFileSync(file.path, 'utf8').split('\n').forEach((line, i) => { recs.push(translator.translateLine(line, { ...ctx, line: i + 1 }, sink) ? '+' : '-'); });
          }
        }
        return recs;
      };
      const replayed = translate(model);
      expect(replayed.filter((r) => r.startsWith('S ')).length).toBeGreaterThan(0);
      expect(replayed).toEqual(translate({ ...model, replay: undefined }));
    }
  });

  it('line keys: 2 bytes a line up to 65 535 keys, 4 past that, in memory shared with the parsing threads', async () => {
    const word = (i: number): string => Array.from({ length: 4 }, (_, k) => String.fromCharCode(97 + (Math.floor(i / 26 ** k) % 26))).join('');
    const text = (n: number): string => Array.from({ length: n }, (_, i) => `2026-11-20 10:00:00,${String(i % 1000).padStart(3, '0')} op ${word(i)} took ${i % 97} ms\n`).join('');
    for (const [n, type] of [[65_535, Uint16Array], [65_536, Int32Array]] as const) {
      // n distinct keys: n − 1 in good, and one more in bad.
      const dir = tree({ 'good/a.log': text(n - 1), 'bad/a.log': `2026-11-20 10:00:01,000 finished\n` });
      const classes = { good: await listInputFiles(join(dir, 'good'), 'good'), bad: await listInputFiles(join(dir, 'bad'), 'bad') };
      const model = await mineTemplates(classes);
      expect(model.replay?.keys.length).toBe(n);
      const lines = model.replay?.lines[classes.good[0]!.path];
      expect(lines).toBeInstanceOf(type);
      expect(lines?.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect([lines?.[0], lines?.[n - 2]]).toEqual([1, n - 1]);
      expect(model.replay?.lines[classes.bad[0]!.path]).toEqual(new type([n]));
    }
  });

  it('an absorbed template hands its lines to the one that absorbed it: counts add, ids stay consecutive', async () => {
    // user=root and user=uucp start two templates; user=ftp (a third word) makes the position a parameter.
    const line = (s: number, u: string): string => `2026-11-20 10:00:0${s},000 login failed user=${u} port=${s}\n`;
    const dir = tree({
      'good/a.log': line(0, 'root') + line(1, 'uucp') + line(2, 'uucp'),
      'bad/a.log': line(3, 'ftp') + line(4, 'root') + '2026-11-20 10:00:05,000 done\n',
    });
    const classes = { good: await listInputFiles(join(dir, 'good'), 'good'), bad: await listInputFiles(join(dir, 'bad'), 'bad') };
    const model = await mineTemplates(classes);
    expect(model.templates.map((t) => [t.id, t.name, t.counts.good, t.counts.bad])).toEqual([
      [0, 'login failed user=<*> port=<*>', 3, 2], // a word position becomes a parameter, keeping its key
      [1, 'done', 0, 1],
    ]);
    expect(model.templates[0]?.example).toBe(line(0, 'root').trimEnd()); // the first line of the older template
    expect(model.templates[0]?.states).toEqual(['', '', '', 'login failed user=<*> port=<*> #2']); // user is a word, not a state
  });

  it('templates with the same skeleton (a unit, a bracketed annotation) are one event: one name, aligned states', async () => {
    const dir = tree({
      'good/a.log': '2026-11-20 10:00:00,000 conn close, 620 bytes sent, lifetime 12\n' +
        '2026-11-20 10:00:01,000 conn close, 1190 bytes (1.16 KB) sent, lifetime <1 sec\n' +
        '2026-11-20 10:00:02,000 conn close, 700 bytes sent, lifetime 30\n',
      'bad/a.log': '2026-11-20 10:00:03,000 conn close, 2048 bytes (2.00 KB) sent, lifetime <2 sec\n' +
        '2026-11-20 10:00:04,000 conn open, port 5\n',
    });
    const classes = { good: await listInputFiles(join(dir, 'good'), 'good'), bad: await listInputFiles(join(dir, 'bad'), 'bad') };
    const model = await mineTemplates(classes);
    const name = 'conn close, <*> bytes sent, lifetime <*>';
    expect(model.templates.map((t) => [t.name, t.tokens.length, t.counts.good, t.counts.bad])).toEqual([
      [name, 7, 2, 0],
      [name, 10, 1, 1], // its own tokens, for matching; the first template's name
      ['conn open, port <*>', 4, 0, 1],
    ]);
    // bytes and lifetime: the same states; the annotation's number is none.
    expect(model.templates[0]?.states).toEqual(['', '', `${name} #1`, '', '', '', `${name} #2`]);
    expect(model.templates[1]?.states).toEqual(['', '', `${name} #1`, '', '', '', '', '', `${name} #2`, '']);
  });

  it('skeleton: words and the number of variables between them; units and bracketed groups go with their variable', () => {
    const key = (s: string): string | null => skeleton(s.split(' ')).key;
    expect(key('<*> close, <*> bytes sent, lifetime <*>')).toBe(key('<*> close, <*> bytes (<*> KB) sent, lifetime <<*> sec'));
    expect(key('rhost=<*> tty=<*>')).not.toBe(key('rhost=<*> tty=<*> <*>')); // an extra variable is another field
    expect(key('user=<*> logged in')).not.toBe(key('<*> logged in'));
    expect(key('Compaction started <*>')).not.toBe(key('Compaction completed <*>'));
    expect(key('took <*> ms')).toBeNull(); // under 2 words: no merging
  });

  it('sniffs raw text against dlog records and CSV record tables', async () => {
    const dir = tree({
      'raw.log': '2026-11-20 10:00:00,000 hello\n',
      'rec.dlog': '# c\nE\t1\tstart\n',
      'rec.csv': 'kind,timestamp,name,value\nE,1,start,\n',
      'raw.csv': 'trace_id,timestamp_ms,span\nab,1795168800278,x\n',
    });
    const sniff = async (f: string): Promise<boolean> => looksRaw(await listInputFiles(join(dir, f), 'good'));
    expect(await sniff('raw.log')).toBe(true);
    expect(await sniff('rec.dlog')).toBe(false);
    expect(await sniff('rec.csv')).toBe(false);
    expect(await sniff('raw.csv')).toBe(true);
  });

  it('first lines: a plain file read synchronously gives what the stream gives its gzipped copy, across chunks and at the 256 KB bound', async () => {
    // 3 000 lines of ~40 bytes (past the first 64 KiB chunk; a non-ASCII letter on some, none at a chunk's edge),
    // CRLF on every fifth, a BOM first; and one of 400 KB with no newline (the read stops past 256 KB).
    const lines = Array.from({ length: 3000 }, (_, i) => `2026-11-20 10:00:${String(i % 60).padStart(2, '0')},000 línea ${i}${i % 5 === 0 ? '\r' : ''}`);
    const text = `\uFEFF${lines.join('\n')}\n`;
    const long = 'x'.repeat(400 * 1024);
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-first-'));
    writeFileSync(join(dir, 'a.log'), text);
    writeFileSync(join(dir, 'a.log.gz'), gzipSync(text));
    writeFileSync(join(dir, 'long.log'), long);
    writeFileSync(join(dir, 'long.log.gz'), gzipSync(long));
    const file = async (name: string) => (await listInputFiles(join(dir, name), 'good'))[0]!;
    for (const n of [1, 80, 2000, 5000]) {
      const plain = await firstLines(await file('a.log'), n);
      expect(plain).toEqual(await firstLines(await file('a.log.gz'), n));
      expect(plain).toEqual([...lines, ''].slice(0, n).map((l) => l.replace(/\r$/, '')));
    }
    const cut = await firstLines(await file('long.log'), 3);
    expect(cut).toEqual(await firstLines(await file('long.log.gz'), 3));
    // Chunks of 64 KiB until the text is longer than 256 KiB: five.
    expect(cut).toEqual(['x'.repeat(5 * 64 * 1024)]);
  });

  it('names: qualified Java names cut to their class, long templates elided in the middle', () => {
    expect(templateName(['INFO', '[main]', 'org.apache.hadoop.hbase.regionserver.HRegionServer:', 'Shutdown', 'complete'], false))
      .toBe('INFO [main] HRegionServer: Shutdown complete');
    const long = templateName(Array.from({ length: 40 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}`), false);
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long).toContain('…');
    // Cut between tokens, never inside one (issue 57: `addStoredBlock…dded to`).
    expect(long).toMatch(/^(word[a-z] )*word[a-z]…word[a-z]( word[a-z])*$/);
    expect(templateName(['BLOCK*', 'NameSystem.addStoredBlock:', 'blockMap', 'updated:', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'is', 'added', 'to', 'the', 'map', 'of', 'blocks', 'and', 'nodes', 'now'], false))
      .toBe('BLOCK* NameSystem.addStoredBlock: blockMap updated: a b c d…blocks and nodes now');
  });
});
