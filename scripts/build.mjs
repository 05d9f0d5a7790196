// The compiled build: bundles the `nonolab` CLI, the server and their worker threads into dist/node/ with esbuild, and the participant client into dist/client/ with Vite.
//
//   node scripts/build.mjs            build both (npm install runs it as `prepare`; `npm run build`)
//   node scripts/build.mjs --node     the CLI and server bundles only (about a second)
//   node scripts/build.mjs --if-stale build only what is missing or older than its sources (`npm start` runs this first)
//   node scripts/build.mjs --watch    rebuild the node bundles on every change (`npm run dev` uses it)
//   --outdir <dir>                    put the node bundles there instead of dist/node: a folder under dist/ or .tmp/
//                                     (inside the package, so that node_modules resolves; the tests build into .tmp/)
//
// The bundles are plain ES modules run by node: no TypeScript compiler at run time. Packages stay external (they are
// loaded from node_modules as usual; better-sqlite3 is native). Two things are rewritten so that the sources behave the
// same bundled as run by tsx: `import.meta.dirname` in a source file becomes that file's own directory (found from
// the bundle's location, so `join(import.meta.dirname, '..', 'package.json')` still finds the package), and each
// worker thread (analysis/pipeline/workers.ts) is its own bundle beside the one that starts it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const outdirAt = argv.indexOf('--outdir');
const outdirArg = outdirAt >= 0 ? argv.splice(outdirAt, 2)[1] : 'dist/node';
const outdir = resolve(root, outdirArg ?? '');
// The folder is emptied before a build: it must be a folder of its own inside the package.
const outParts = relative(root, outdir).split(/[\\/]/);
if (!outdirArg || !['dist', '.tmp'].includes(outParts[0]) || outParts.length < 2 || outParts[1] === 'client') {
  console.error(`build: --outdir needs a folder under dist/ (not dist/client) or .tmp/ (got ${outdirArg ?? 'nothing'})`);
  process.exit(2);
}

/** Entry points: output name -> source. */
const entries = {
  cli: 'analysis/cli.ts',
  server: 'server/main.ts',
  extractWorker: 'analysis/pipeline/extractWorker.ts',
  gmmWorker: 'analysis/pipeline/gmmWorker.ts',
  satMetricsWorker: 'analysis/sat/metricsWorker.ts',
  phaseWorker: 'analysis/commands/phaseWorker.ts',
};

/** `import.meta.dirname` in a source file -> that file's directory, as seen from the bundle in dist/node/. */
const sourceDirname = {
  name: 'source-dirname',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${join('node_modules', '')}`)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.dirname')) return { contents: text, loader: 'ts' };
      const fromBundle = relative(outdir, dirname(args.path)).split('\\').join('/');
      return { contents: text.replaceAll('import.meta.dirname', `(import.meta.dirname + ${JSON.stringify('/' + fromBundle)})`), loader: 'ts' };
    });
  },
};

const options = {
  absWorkingDir: root,
  entryPoints: entries,
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Packages are bundled too: loading one file is much faster than resolving hundreds (the @stdlib distributions
  // alone are ~600 small CommonJS files). Native and optional modules stay outside.
  external: ['better-sqlite3', 'sharp', 'canvas', 'fsevents'],
  banner: { js: "import { createRequire as __nonolabCreateRequire } from 'node:module'; const require = __nonolabCreateRequire(import.meta.url);" },
  splitting: true,
  chunkNames: '[name]-[hash]',
  sourcemap: 'linked',
  logLevel: 'warning',
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [sourceDirname],
};

/** The newest modification time among the files under `dirs` whose names match `test`. */
function newest(dirs, test) {
  let max = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (test(entry.name)) max = Math.max(max, statSync(path).mtimeMs);
    }
  };
  for (const dir of dirs) if (existsSync(join(root, dir))) walk(join(root, dir));
  return max;
}

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : -1);
// Packages are bundled too: a changed package.json or lockfile (an upgraded dependency) makes the bundles stale.
const manifests = () => Math.max(mtime(join(root, 'package.json')), mtime(join(root, 'package-lock.json')));
const nodeSources = () => Math.max(newest(['analysis', 'node', 'server', 'shared'], (n) => n.endsWith('.ts') && !n.endsWith('.test.ts')), manifests(), mtime(join(root, 'scripts', 'build.mjs')));
const clientSources = () => Math.max(newest(['client', 'shared'], (n) => !n.endsWith('.test.ts') && !n.endsWith('.test.tsx')), mtime(join(root, 'vite.config.ts')), manifests());
const nodeBuilt = () => Math.min(...Object.keys(entries).map((name) => mtime(join(outdir, `${name}.js`))));
const clientBuilt = () => mtime(join(root, 'dist', 'client', 'index.html'));

async function buildNode() {
  rmSync(outdir, { recursive: true, force: true });
  await esbuild.build(options);
}

function buildClient() {
  const vite = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (vite.status !== 0) throw new Error(`vite build failed (exit ${vite.status})`);
}

const args = new Set(argv);
const unknown = [...args].filter((a) => !['--node', '--if-stale', '--watch'].includes(a));
if (unknown.length) {
  console.error(`build: unknown option ${unknown.join(' ')} (use --node, --if-stale, --watch or --outdir <dir>)`);
  process.exit(2);
}
try {
  if (args.has('--watch')) {
    const context = await esbuild.context({ ...options, plugins: [...options.plugins, { name: 'report', setup: (b) => b.onEnd((r) => console.log(`build: dist/node rebuilt${r.errors.length ? ` with ${r.errors.length} error(s)` : ''}`)) }] });
    await context.watch();
  } else if (args.has('--if-stale')) {
    if (nodeBuilt() < nodeSources()) {
      console.log('build: dist/node is missing or older than its sources: rebuilding');
      await buildNode();
    }
    if (!args.has('--node') && clientBuilt() < clientSources()) {
      console.log('build: dist/client is missing or older than its sources: rebuilding');
      buildClient();
    }
  } else {
    await buildNode();
    if (!args.has('--node')) buildClient();
  }
} catch (err) {
  console.error(`build: ${err.message}`);
  process.exit(1);
}
