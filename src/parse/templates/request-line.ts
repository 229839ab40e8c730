/**
 * An HTTP request line quoted in a log message (`"GET /api/cart/1234?x=1 HTTP/1.1"`), as access logs write it:
 * nginx's `combined` (`"$request"`), Apache's `%r` (`\"%r\"` in the common and combined formats), Envoy's default
 * (`"%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%"`), Traefik's and Caddy's common log. Its method
 * and target name the endpoint the line is about, so they are part of the template, not values: masked whole as a
 * path (mask.ts), every endpoint's line was one template per method (`"GET <*> <*>"`), and a slow endpoint's duration
 * was found but not which endpoint. Inside the target, what varies per request is masked: a path segment that is an
 * id (a digit in it, 8 or more hex digits, a UUID: mask.ts's ids) and every value of the query string (its keys kept:
 * they name the parameters), so `/api/cart/123` and `/api/cart/456` are one endpoint, `/api/cart/<*>`, and
 * `/api/order/<*>` another. The status code stays a value (a 404 of an endpoint is still that endpoint: its rate
 * shows in the status's values), as does the protocol's version. The quoted fields after it (referer, user agent,
 * forwarded-for: headers a client sends) are values, one token each (mask.ts requestLineEnd), masked whole.
 * Only a message that begins with its request line: an access log's line is one request, the fields before it
 * (client, ident, user, time) being its header (header.ts), so the request is what the line is about. A request line
 * later in a message is a parameter of an application's log statement (OpenStack nova's wsgi
 * `10.11.10.1 "GET /v2/… HTTP/1.1" status: 200 len: 1893 time: 0.247`), whose event is the statement: LogHub's labels
 * group those lines by statement, and splitting them by endpoint took OpenStack's raw grouping from 0.926 to 0.556.
 */
import { maskToken, WILDCARD } from './mask.js';

/** A method token (`"GET`, a quote then an upper-case word) and a protocol token (`HTTP/1.1"`, `HTTP/2"`, or masked). */
const METHOD = /^"[A-Z][A-Z-]{1,15}$/;
const PROTOCOL = /^HTTP\/(?:\d+(?:\.\d+)?|<\*>)"$/;

/** Whether a message's first three tokens (raw or masked) are a quoted request line's method, target and protocol. */
export function isRequestLine(tokens: readonly string[]): boolean {
  // (The quote first: most messages fail there, without a regex.)
  return tokens.length >= 3 && (tokens[0] as string).charCodeAt(0) === 34 && METHOD.test(tokens[0] as string) &&
    PROTOCOL.test(tokens[2] as string);
}

/**
 * Whether token `i` is the method or the target of a message's request line: a template never generalizes it into a
 * parameter (drain.ts), as the endpoint it names would be lost.
 */
export function inRequestLine(tokens: readonly string[], i: number): boolean {
  return i <= 1 && isRequestLine(tokens);
}

/**
 * Mask the request line a message begins with, in place (`masked` from mask.ts maskToken, `raw` as tokenized), and
 * the quoted fields after it whole (`"<*>"`: a referer, a user agent, a forwarded-for; mask.ts requestLineEnd makes
 * each one token): values a client sends, as the query's are.
 */
export function maskRequestLine(raw: readonly string[], masked: string[]): void {
  if (!isRequestLine(raw)) return;
  masked[0] = raw[0] as string;
  masked[1] = maskTarget(raw[1] as string);
  masked[2] = `HTTP/${WILDCARD}"`;
  for (let i = 3; i < raw.length; i++) if (isQuotedField(raw[i] as string)) masked[i] = QUOTED_FIELD;
}

/** A template's masked quoted field (maskRequestLine). */
export const QUOTED_FIELD = `"${WILDCARD}"`;

/** A token that is a quoted field: `"` to `"` (mask.ts tokenize reads one whole after a request line). */
function isQuotedField(token: string): boolean {
  return token.length >= 2 && token.charCodeAt(0) === 34 && token.charCodeAt(token.length - 1) === 34;
}

const ABSOLUTE = /^[A-Za-z][\w+.-]*:\/\/[^/?#]*/;
const HEX = /^[0-9a-fA-F]{8,}$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * A request target with its ids and query values masked: `/api/cart/1234?sort=asc&page=2` →
 * `/api/cart/<*>?sort=<*>&page=<*>`. An absolute URL (a proxy's) keeps its scheme, its host masked as a value
 * (`http://<*>/api`); a target that is neither (`*`, CONNECT's `host:443`) is masked as any token.
 */
export function maskTarget(target: string): string {
  let prefix = '';
  let rest = target;
  const absolute = ABSOLUTE.exec(target);
  if (absolute !== null) {
    const scheme = absolute[0].indexOf('://') + 3;
    prefix = `${target.slice(0, scheme)}${WILDCARD}`;
    rest = target.slice(absolute[0].length);
  } else if (target.charCodeAt(0) !== 47 /* / */) return maskToken(target);
  const q = rest.indexOf('?');
  const path = q === -1 ? rest : rest.slice(0, q);
  let out = prefix + path.split('/').map((s) => (isId(s) ? WILDCARD : s)).join('/');
  if (q !== -1) {
    out += '?' + rest.slice(q + 1).split('&').map((pair) => {
      const eq = pair.indexOf('=');
      return eq === -1 ? pair : `${pair.slice(0, eq)}=${WILDCARD}`;
    }).join('&');
  }
  return out;
}

/** A path segment that is an id: a digit in it (`1234`, `v2`, `a1b2`), 8 or more hex digits, a UUID. */
function isId(segment: string): boolean {
  return /\d/.test(segment) || HEX.test(segment) || UUID.test(segment);
}
