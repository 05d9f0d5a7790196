// Starts a worker thread on one of the analysis worker modules: the compiled sibling (dist/node/<name>.js) in the build, the TypeScript source through tsx in development and tests.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Each worker's bundle name (dist/node/<name>.js; scripts/build.mjs lists the same) and its source, relative to this file. */
const SOURCES = {
  extractWorker: './extractWorker.ts',
  lmmWorker: './lmmWorker.ts',
  gmmWorker: './gmmWorker.ts',
  satMetricsWorker: '../sat/metricsWorker.ts',
} as const;
export type WorkerName = keyof typeof SOURCES;

/**
 * In the build (scripts/build.mjs bundles each worker next to cli.js and server.js) this module is part of a `.js`
 * bundle and the worker is its sibling file. Run from source (tsx, vitest) it is a `.ts` file: the worker then evaluates
 * a two-line bootstrap that registers tsx before importing the worker's TypeScript source.
 */
export function startWorker(name: WorkerName, options: WorkerOptions = {}): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, here), options);
  const tsx = pathToFileURL(tsxEsmApi(here)).href;
  const entry = new URL(SOURCES[name], here).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** The file of tsx's ES-module API (`tsx/esm/api` under the import condition; require.resolve would give the CommonJS one). */
function tsxEsmApi(from: string): string {
  const manifest = createRequire(from).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return join(dirname(manifest), pkg.exports['./esm/api'].import.default);
}
