// `npm run dev`: watch mode. Rebuilds the node bundles (esbuild) and the client (vite build --watch) on every change and restarts the server (node --watch) when its bundle changes.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const children = [];
const run = (args, env = {}, stdout = 'inherit') => {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['inherit', stdout, 'inherit'], env: { ...process.env, ...env } });
  children.push(child);
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`dev: ${args.join(' ')} ended (${signal ?? code}); stopping`);
    stop(1);
  });
  return child;
};
let stopping = false;
const stop = (code = 0) => {
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  process.exitCode = code;
};
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

// A first full build (so that the server starts on current code), then the watchers.
const first = spawn(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { cwd: root, stdio: 'inherit' });
first.on('exit', (code) => {
  if (code !== 0 || !existsSync(join(root, 'dist', 'node', 'server.js'))) {
    console.error('dev: the first build failed');
    process.exit(1);
  }
  // The server starts after the watcher's first build (which rewrites dist/node/), so that it does not restart at once.
  const watcher = run([join(root, 'scripts', 'build.mjs'), '--watch'], {}, 'pipe');
  let serverStarted = false;
  watcher.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    if (serverStarted) return;
    serverStarted = true;
    run(['--watch', join(root, 'dist', 'node', 'server.js')], { UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? '64' });
  });
  // --emptyOutDir false: the first build has made dist/client/ already, so the server never meets it half emptied
  // (an unchanged client rebuilds to the same file names; old assets of edited files stay until `npm run build`).
  run([join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--watch', '--emptyOutDir', 'false', '--logLevel', 'warn']);
});
