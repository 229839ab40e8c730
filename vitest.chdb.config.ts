import { defineConfig } from 'vitest/config';

// The pushdown on a current ClickHouse in-process (chdb): not in `npm test`, as chdb is not a dependency
// (test/clickhouse-current.chdb-test.ts says why). `npm run test:chdb` installs it and runs this.
export default defineConfig({
  test: {
    include: ['test/**/*.chdb-test.ts'],
    globalSetup: ['test/helpers/temp-root.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
