/**
 * The pushdown across a real 2-shard cluster (two servers, a Distributed table): each shard computes the instances
 * it holds (the table sharded by the instance), and the answer is the file path's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardSettings } from '../src/clickhouse/reader.js';
import { readClasses } from '../src/read/index.js';
import { RECORDS_TABLE, RUNS_TABLE, dlogRows, jsonDifference, requireServer, sql, startCluster } from './helpers/clickhouse.js';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run } from './helpers/run.js';
import { RowBinary } from '../scripts/clickhouse-server.mjs';
import { FIXTURES } from './helpers/synth.js';

let cluster: Awaited<ReturnType<typeof startCluster>>;

beforeAll(async () => {
  requireServer();
  cluster = await startCluster(2);
  for (const s of cluster.servers) {
    await sql(s.url, `CREATE TABLE records_local ${RECORDS_TABLE} ENGINE = MergeTree ORDER BY (instance, time, seq)`);
    await sql(s.url, `CREATE TABLE records ${RECORDS_TABLE} ENGINE = Distributed(distalyze, default, records_local, cityHash64(instance))`);
    await sql(s.url, `CREATE TABLE records_any ${RECORDS_TABLE} ENGINE = Distributed(distalyze, default, records_local)`);
  }
  const rows = dlogRows(FIXTURES.pipelineBad, 'bad', dlogRows(FIXTURES.pipelineGood, 'good', new RowBinary()));
  const first = cluster.servers[0]!;
  // Through the Distributed table, sent to the shards before the insert returns.
  await sql(first.url, 'INSERT INTO records FORMAT RowBinary', rows.bytes(), { insert_distributed_sync: '1' });
  // The nightly runs, sharded by the run: each (run, instance) whole on one shard.
  for (const s of cluster.servers) {
    await sql(s.url, `CREATE TABLE nightly_local ${RUNS_TABLE} ENGINE = MergeTree ORDER BY (run, instance, time, seq)`);
    await sql(s.url, `CREATE TABLE nightly ${RUNS_TABLE} ENGINE = Distributed(distalyze, default, nightly_local, cityHash64(run))`);
  }
  const nights = new RowBinary();
  for (const night of readdirSync(NIGHTLY).sort()) dlogRows(join(NIGHTLY, night), night, nights);
  await sql(first.url, 'INSERT INTO nightly FORMAT RowBinary', nights.bytes(), { insert_distributed_sync: '1' });
}, 180_000);

const NIGHTLY = join(ROOT, 'fixtures', 'history', 'nightly');

afterAll(async () => {
  await cluster?.stop();
});

describe('ClickHouse pushdown over a 2-shard cluster', () => {
  it('holds each instance on one shard, the instances split between both', async () => {
    const held = await Promise.all(cluster.servers.map(async (s) => (await sql(s.url, 'SELECT DISTINCT instance FROM records_local ORDER BY instance')).trim().split('\n')));
    expect(held[0]!.length).toBeGreaterThan(5);
    expect(held[1]!.length).toBeGreaterThan(5);
    expect(held[0]!.filter((i) => held[1]!.includes(i))).toEqual([]);
    expect(held[0]!.length + held[1]!.length).toBe(40);
  });

  it('is computed shard by shard when the Distributed table is sharded by the instance (its CREATE statement read)', async () => {
    const url = cluster.servers[0]!.url;
    expect(shardSettings(await sql(url, 'SHOW CREATE TABLE records'), 'instance')).toEqual({ distributed_group_by_no_merge: 1 });
    expect(shardSettings(await sql(url, 'SHOW CREATE TABLE records_any'), 'instance')).toEqual({});
    expect(shardSettings(await sql(url, 'SHOW CREATE TABLE records_local'), 'instance')).toEqual({});
  });

  it('gives the file path\'s features, each shard computing its own instances', async () => {
    const file = await readClasses(FIXTURES.pipelineGood, FIXTURES.pipelineBad, { jobs: 1 });
    const url = cluster.servers[0]!.url;
    const columns = 'order=seq,kind=none';
    const sharded = await readClasses("class = 'good'", "class = 'bad'", { clickhouse: { url, table: 'records', columns } });
    // Not sharded by the instance: the shards' partial arrays are merged on the server asked (slower, the same).
    const merged = await readClasses("class = 'good'", "class = 'bad'", { clickhouse: { url, table: 'records_any', columns } });
    for (const table of [sharded, merged]) {
      const a = file.features.features;
      const b = table.features.features;
      expect(b.instances).toEqual(a.instances);
      expect(b.tables.map((t) => t.variables)).toEqual(a.tables.map((t) => t.variables));
      for (let t = 0; t < a.tables.length; t++) {
        a.tables[t]!.columns.forEach((col, v) => {
          const other = b.tables[t]!.columns[v]!;
          col.forEach((x, i) => {
            const y = other[i]!;
            if (Number.isNaN(x)) expect(y).toBeNaN();
            else expect(Math.abs(x - y)).toBeLessThanOrEqual(1e-9 * Math.max(Math.abs(x), Math.abs(y)));
          });
        });
      }
    }
  });

  it('history over runs sharded by the run gives the file path\'s JSON, each shard computing its own runs', async () => {
    const url = cluster.servers[0]!.url;
    expect(shardSettings(await sql(url, 'SHOW CREATE TABLE nightly'), 'instance', 'run')).toEqual({ distributed_group_by_no_merge: 1 });
    const held = await Promise.all(cluster.servers.map(async (s) => Number((await sql(s.url, 'SELECT count(DISTINCT run) FROM nightly_local')).trim())));
    expect(held[0]! > 0 && held[1]! > 0 && held[0]! + held[1]! === 30).toBe(true);
    const files = await run('history', NIGHTLY, '--json', '-', '-q');
    const table = await run('history', '--clickhouse', url, '--table', 'nightly', '--columns', 'run=run,order=seq,kind=none', "run != ''", '--json', '-', '-q');
    expect(table.code).toBe(0);
    expect(jsonDifference(JSON.parse(files.stdout), JSON.parse(table.stdout))).toBeNull();
  });
});

