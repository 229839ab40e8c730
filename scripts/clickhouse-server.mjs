// A real ClickHouse server for the tests and the benchmark: Debian's clickhouse-server (18.16 in bookworm) does not
// start by itself (no systemd here), so this writes a config into a temporary directory and runs the server binary
// on 127.0.0.1 at free ports; stop() ends it. startCluster(2) starts two, each knowing both as the shards of the
// cluster `distalyze` (for a Distributed table).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const INSTALL_HINT = 'ClickHouse is needed: apt-get update && apt-get install -y clickhouse-server clickhouse-client ' +
  '(or set CLICKHOUSE_SERVER_BIN to a clickhouse-server binary); the tests start it themselves';

/** The server binary: $CLICKHOUSE_SERVER_BIN, Debian's /usr/sbin/clickhouse-server, or `clickhouse server` on PATH. */
export function serverCommand() {
  const own = process.env.CLICKHOUSE_SERVER_BIN;
  if (own !== undefined && own !== '') return [own];
  if (existsSync('/usr/sbin/clickhouse-server')) return ['/usr/sbin/clickhouse-server'];
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir !== '' && existsSync(join(dir, 'clickhouse-server'))) return [join(dir, 'clickhouse-server')];
    if (dir !== '' && existsSync(join(dir, 'clickhouse'))) return [join(dir, 'clickhouse'), 'server'];
  }
  throw new Error(INSTALL_HINT);
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function config(dir, ports, shards) {
  const remote = shards.length === 0 ? '' : `<remote_servers><distalyze>${shards.map((p) =>
    `<shard><replica><host>127.0.0.1</host><port>${p}</port></replica></shard>`).join('')}</distalyze></remote_servers>`;
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>${dir}/log/server.log</log><errorlog>${dir}/log/error.log</errorlog></logger>
  <http_port>${ports.http}</http_port>
  <tcp_port>${ports.tcp}</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <mark_cache_size>268435456</mark_cache_size>
  <uncompressed_cache_size>268435456</uncompressed_cache_size>
  <max_concurrent_queries>50</max_concurrent_queries>
  <keep_alive_timeout>600</keep_alive_timeout>
  <query_log><database>system</database><table>query_log</table><flush_interval_milliseconds>1000</flush_interval_milliseconds></query_log>
  ${remote}
  <users>
    <default><password></password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks><profile>default</profile><quota>default</quota></default>
    <distalyze><password>secret</password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks><profile>default</profile><quota>default</quota></distalyze>
  </users>
  <profiles><default><max_threads>2</max_threads><max_memory_usage>4000000000</max_memory_usage></default></profiles>
  <quotas><default></default></quotas>
</yandex>
`;
}

async function waitReady(url, child, dir) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`clickhouse-server exited (${child.exitCode}); see ${dir}/log/error.log`);
    try {
      const r = await fetch(`${url}/ping`);
      if (r.ok) return;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`clickhouse-server did not answer at ${url} within 60 s; see ${dir}/log/error.log`);
}

async function startOne(ports, shards) {
  const command = serverCommand();
  const dir = mkdtempSync(join(process.env.DISTALYZE_TMP ?? tmpdir(), 'distalyze-clickhouse-'));
  for (const d of ['log', 'data', 'tmp', 'user_files', 'format_schemas']) mkdirSync(join(dir, d));
  writeFileSync(join(dir, 'config.xml'), config(dir, ports, shards));
  const [bin, ...args] = command;
  const child = spawn(bin, [...args, `--config-file=${join(dir, 'config.xml')}`], { cwd: dir, stdio: 'ignore' });
  const url = `http://127.0.0.1:${ports.http}`;
  await waitReady(url, child, dir);
  // Stopped once, however many ask (an interrupt and a finally block both may).
  let stopping;
  const stop = () => (stopping ??= (async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  })());
  return { url, http: ports.http, tcp: ports.tcp, dir, pid: child.pid, stop };
}

/** One server; `{ url, stop }`. */
export async function startServer() {
  return startOne({ http: await freePort(), tcp: await freePort() }, []);
}

/** n servers, the shards of cluster `distalyze`; `{ servers, stop }`. */
export async function startCluster(n = 2) {
  const ports = [];
  for (let i = 0; i < n; i++) ports.push({ http: await freePort(), tcp: await freePort() });
  const servers = [];
  try {
    for (const p of ports) servers.push(await startOne(p, ports.map((q) => q.tcp)));
  } catch (err) {
    for (const s of servers) await s.stop();
    throw err;
  }
  let stopping;
  return { servers, stop: () => (stopping ??= Promise.all(servers.map((s) => s.stop())).then(() => undefined)) };
}

/** The server's version (`clickhouse-server --version` is not in 18.16: asked of a running one). */
export async function serverVersion(url) {
  return (await (await fetch(`${url}/?query=${encodeURIComponent('SELECT version()')}`)).text()).trim();
}

/** Run one statement over HTTP (with a body: the query in the URL, the data in the body; settings as parameters). */
export async function sql(url, query, body, settings = {}) {
  const params = new URLSearchParams(settings);
  if (body !== undefined) params.set('query', query);
  const r = await fetch(`${url}/?${params}`, { method: 'POST', body: body ?? query });
  const text = await r.text();
  if (!r.ok) throw new Error(`${query.slice(0, 200)}: ${text.trim()}`);
  return text;
}

// RowBinary: exact floats (ClickHouse 18.16 parses decimal text to within an ulp, not exactly).
export class RowBinary {
  constructor() { this.chunks = []; this.buf = Buffer.alloc(1 << 16); this.at = 0; }
  room(n) {
    if (this.at + n <= this.buf.length) return;
    this.chunks.push(this.buf.subarray(0, this.at));
    this.buf = Buffer.alloc(Math.max(1 << 16, n));
    this.at = 0;
  }
  string(s) {
    const b = Buffer.from(s, 'utf8');
    this.room(b.length + 10);
    let n = b.length;
    while (n >= 0x80) { this.buf[this.at++] = (n & 0x7f) | 0x80; n >>>= 7; }
    this.buf[this.at++] = n;
    b.copy(this.buf, this.at);
    this.at += b.length;
  }
  float64(x) { this.room(8); this.buf.writeDoubleLE(x, this.at); this.at += 8; }
  uint64(x) { this.room(8); this.buf.writeBigUInt64LE(BigInt(x), this.at); this.at += 8; }
  int64(x) { this.room(8); this.buf.writeBigInt64LE(BigInt(x), this.at); this.at += 8; }
  bytes() { return Buffer.concat([...this.chunks, this.buf.subarray(0, this.at)]); }
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
export function processCpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime: fields 14 and 15 of stat, 12 and 13 after the name; in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Whether the binary is there at all (for a message before starting). */
export function serverInstalled() {
  try { serverCommand(); return true; } catch { return false; }
}

/** `apt-cache policy`'s installed version, when apt is there (for the docs' tested versions). */
export function installedPackageVersion() {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Version}', 'clickhouse-server'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}
