// `npm run build`, after tsc: the CLI bundled into dist/bundle/ (rolldown, a dev dependency).
// Node loads ~50 chunks instead of ~100 modules and ~20 files of dependencies,
// in the main thread and again in each parsing worker (bench/README.md, issue
// 17 sixth pass: the measured gain). Input is tsc's own output (dist/), so the
// bundle runs the same JavaScript; bin/distalyze.js uses it when it is at
// least as new as dist/cli/entry.js, else dist/ as compiled.
//
// - Entries: the CLI (entry.js), and the workers it starts by URL, which must
//   sit next to the chunks that start them: read/parallel/parallel.ts and ranges.ts
//   start './worker.js', templates/mine-parallel.ts './mine-worker.js'.
// - dist/errors.js stays outside: a translator module may throw an InputError
//   imported from the package (dist/index.js); the CLI's `instanceof` must see
//   that same class.
// - The runtime dependencies are bundled too (commander, csv-parse, chalk, yaml:
//   a dozen files each otherwise), except @hpcc-js/wasm-graphviz (large, and
//   only loaded to draw graphs). package.json still lists them all: the library
//   entry (dist/index.js) imports them from node_modules.
import { isBuiltin } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = dirname(fileURLToPath(import.meta.url));
const errors = resolve(root, '../dist/errors.js');

await build({
  input: {
    distalyze: resolve(root, '../dist/cli/entry.js'),
    worker: resolve(root, '../dist/read/parallel/worker.js'),
    'mine-worker': resolve(root, '../dist/parse/templates/mine-worker.js'),
  },
  platform: 'node',
  logLevel: 'warn',
  // Node's own modules, and Graphviz (a large WebAssembly module, loaded only to draw --html graphs).
  external: (id) => isBuiltin(id) || /^@hpcc-js\/wasm-graphviz(\/|$)/.test(id),
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
