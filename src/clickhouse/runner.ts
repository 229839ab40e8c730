import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import { InputError } from '../errors.js';

/** Where the logs are: a ClickHouse server's HTTP interface and a database (`http://host:8123/db`). */
export interface ClickHouseConnection {
  readonly client: ClickHouseClient;
  /** The URL without credentials, for messages. */
  readonly url: string;
  readonly database: string;
}

/**
 * A client for `url` (http(s)://host:port[/database]); the user and password
 * come from CLICKHOUSE_USER and CLICKHOUSE_PASSWORD (the official client's and
 * clickhouse-client's names), never from the command line, where `ps` and the
 * shell's history would show them.
 */
export function connect(url: string, env: NodeJS.ProcessEnv = process.env): ClickHouseConnection {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InputError(`--clickhouse ${url}: not a URL`, undefined, undefined, 'e.g. --clickhouse http://localhost:8123/default');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new InputError(`--clickhouse ${url}: the HTTP interface is needed (http:// or https://, port 8123 by default)`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new InputError('--clickhouse: credentials do not belong on the command line', undefined, undefined,
      'set CLICKHOUSE_USER and CLICKHOUSE_PASSWORD in the environment instead');
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\/+|\/+$/g, '')) || 'default';
  const base = `${parsed.protocol}//${parsed.host}`;
  const client = createClient({
    url: base,
    database,
    username: env.CLICKHOUSE_USER ?? 'default',
    password: env.CLICKHOUSE_PASSWORD ?? '',
    application: 'distalyze',
    // A long query keeps its connection alive with progress headers (a proxy's idle timeout would cut it).
    request_timeout: 3_600_000,
    clickhouse_settings: { send_progress_in_http_headers: 1, http_headers_progress_interval_ms: '10000' },
    // Its failures reach the user as one line each (serverError), not as the client's log.
    log: { level: ClickHouseLogLevel.OFF },
    // The features come back as they are computed, one row an instance; nothing to compress for.
    compression: { response: false, request: false },
  });
  return { client, url: `${base}/${database}`, database };
}

/** The rows of `query` (JSONEachRow), one object each, as they arrive; with the bytes each block brought. */
export async function* queryRows(conn: ClickHouseConnection, query: string, settings: Record<string, number> = {}, onBytes?: (n: number) => void): AsyncGenerator<Record<string, unknown>> {
  let result;
  try {
    result = await conn.client.query({ query, format: 'JSONEachRow', clickhouse_settings: settings });
  } catch (err) {
    throw serverError(err, conn, true);
  }
  try {
    for await (const rows of result.stream()) {
      for (const row of rows) {
        onBytes?.(row.text.length + 1);
        yield row.json<Record<string, unknown>>();
      }
    }
  } catch (err) {
    throw serverError(err, conn, true);
  }
}

/** All rows of a small query. */
export async function queryAll(conn: ClickHouseConnection, query: string, onBytes?: (n: number) => void): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const row of queryRows(conn, query, {}, onBytes)) out.push(row);
  return out;
}

/** ClickHouse's error codes a user can cause, as in its ErrorCodes.cpp. */
const UNKNOWN_TABLE = 60;
const UNKNOWN_DATABASE = 81;
const UNKNOWN_IDENTIFIER = 47;
const SYNTAX_ERROR = 62;
const UNKNOWN_USER = 192;
const WRONG_PASSWORD = 193;
const REQUIRED_PASSWORD = 194;
const IP_ADDRESS_NOT_ALLOWED = 195;
const AUTHENTICATION_FAILED = 516;

/**
 * A failure of the server or of the way to it, as one line naming what to fix (an InputError), or as it is.
 * `answered`: the error is the client's for a query (never this program's own): whatever it is, the user's to see
 * in one line, not an internal error.
 */
export function serverError(err: unknown, conn: ClickHouseConnection, answered = false): Error {
  if (err instanceof InputError) return err;
  const e = err as { code?: string | number; message?: string; type?: string };
  const text = String(e.message ?? err).split('\n')[0] ?? '';
  // A current server's error is parsed by the client (code, message); 18.16's form is not: `Code: 60,
  // e.displayText() = DB::Exception: Table default.nope doesn't exist., e.what() = DB::Exception`.
  const old = /^Code: (\d+), e\.displayText\(\) = (?:DB::Exception: )?(.*?)(?:, e\.what\(\) = .*)?$/.exec(text);
  const message = (old?.[2] ?? text).replace(/\.$/, '');
  const code = old !== null ? Number(old[1]) : typeof e.code === 'string' && /^\d+$/.test(e.code) ? Number(e.code) : e.code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ETIMEDOUT' || code === 'ECONNRESET' || /ECONNREFUSED|ENOTFOUND|socket hang up|Timeout error/.test(message)) {
    return new InputError(`ClickHouse at ${conn.url} cannot be reached (${code ?? message})`, undefined, undefined, 'check --clickhouse URL (the HTTP port, 8123 by default) and that the server runs');
  }
  if (code === UNKNOWN_USER || code === WRONG_PASSWORD || code === REQUIRED_PASSWORD || code === AUTHENTICATION_FAILED || code === IP_ADDRESS_NOT_ALLOWED || /password is incorrect|Unknown user|Authentication failed/i.test(message)) {
    return new InputError(`ClickHouse at ${conn.url} refused the login: ${message}`, undefined, undefined, 'set CLICKHOUSE_USER and CLICKHOUSE_PASSWORD');
  }
  if (code === UNKNOWN_DATABASE) return new InputError(`ClickHouse at ${conn.url}: ${message}`, undefined, undefined, 'the database is the URL\'s path: --clickhouse http://host:8123/DATABASE');
  if (code === UNKNOWN_TABLE) return new InputError(`ClickHouse at ${conn.url}: ${message}`, undefined, undefined, 'name the table with --table');
  if (code === UNKNOWN_IDENTIFIER || code === SYNTAX_ERROR) return new InputError(`ClickHouse at ${conn.url}: ${message}`, undefined, undefined, 'check the conditions given (classes, selections) and --columns');
  if (!answered) return err instanceof Error ? err : new Error(String(err));
  // Any other code is the server's own word (a memory limit, a timeout): said as it is.
  if (typeof code === 'number') return new InputError(`ClickHouse at ${conn.url}: ${message}`);
  // No ClickHouse error in the answer: an HTTP server that is not ClickHouse's interface (another port, a proxy).
  return notClickHouse(conn, message.trim() === '' ? 'an empty error response' : `'${message.trim().slice(0, 80)}'`);
}

/** The server at the URL answers, but not as ClickHouse does: `said` is what it answered. */
export function notClickHouse(conn: ClickHouseConnection, said: string): InputError {
  return new InputError(`ClickHouse at ${conn.url}: the answer is not ClickHouse's (${said})`, undefined, undefined,
    'check --clickhouse URL: the HTTP interface of a ClickHouse server (port 8123 by default), not another service or a proxy');
}
