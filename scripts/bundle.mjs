// `npm run build`, after tsc: the CLI bundled into dist/bundle/ (rolldown, a dev dependency).
// Node loads one module graph of ~20 chunks instead of ~150 modules, in the
// main thread and again in each parsing worker (bench/README.md, issue 17
// sixth pass: the measured gain). Input is tsc's own output (dist/), so the
// bundle runs the same JavaScript; bin/distalyze.js uses it when it is at
// least as new as dist/cli/entry.js, else dist/ as compiled.
//
// - Entries: the CLI (entry.js), and the workers it starts by URL, which must
//   sit next to the chunks that start them: parse/parallel.ts and ranges.ts
//   start './worker.js', templates/mine-parallel.ts './mine-worker.js'.
// - dist/errors.js stays outside: a translator module may throw an InputError
//   imported from the package (dist/index.js); the CLI's `instanceof` must see
//   that same class.
// - Dependencies stay outside (node_modules, loaded as before).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = dirname(fileURLToPath(import.meta.url));
const errors = resolve(root, '../dist/errors.js');

await build({
  input: {
    distalyze: resolve(root, '../dist/cli/entry.js'),
    worker: resolve(root, '../dist/parse/worker.js'),
    'mine-worker': resolve(root, '../dist/parse/templates/mine-worker.js'),
  },
  platform: 'node',
  logLevel: 'warn',
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
  plugins: [{
    name: 'shared-errors',
    resolveId(source, importer) {
      if (importer !== undefined && source.startsWith('.') && resolve(dirname(importer), source) === errors) return { id: '../errors.js', external: true };
      return null;
    },
  }],
  output: {
    dir: resolve(root, '../dist/bundle'),
    cleanDir: true,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
  },
});
