// Test support: a fresh compiled build (scripts/build.mjs --node) in a folder of its own under .tmp/, so that tests check the bundles of the current sources, not a stale dist/.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './server.ts';

/** Build the node bundles into .tmp/compiled-<name>-<pid>/ (inside the package, so node_modules resolves); returns the folder and its remover. */
export function buildCompiled(name: string): { dir: string; remove: () => void } {
  mkdirSync(join(repoRoot, '.tmp'), { recursive: true });
  const dir = join(repoRoot, '.tmp', `compiled-${name}-${process.pid}`);
  const build = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build.mjs'), '--node', '--outdir', dir], { cwd: repoRoot, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`scripts/build.mjs failed (${build.status}):\n${build.stdout}${build.stderr}`);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
