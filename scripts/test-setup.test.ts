// scripts/test-setup.mjs run as a child process with its probes pointed at a temporary directory: never uninstalls anything.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, 'test-setup.mjs');
const { tools } = JSON.parse(readFileSync(join(import.meta.dirname, 'test-tools.json'), 'utf8')) as {
  tools: { package: string; probe: { command?: string; path?: string } }[];
};
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A probe root holding fakes of every tool except those named. */
function probeRoot(except: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'nonolab-setup-'));
  dirs.push(root);
  for (const tool of tools) {
    if (except.includes(tool.package)) continue;
    const file = tool.probe.command ? join(root, 'bin', tool.probe.command) : join(root, tool.probe.path!.replace('*', '15'));
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '#!/bin/sh\n');
    chmodSync(file, 0o755);
  }
  return root;
}

const run = (root: string, asRoot = '0') =>
  spawnSync(process.execPath, [script], { encoding: 'utf8', env: { ...process.env, NONOLAB_SETUP_PROBE_ROOT: root, NONOLAB_SETUP_AS_ROOT: asRoot } });

describe('npm test set-up (scripts/test-setup.mjs)', () => {
  it('is quiet and exits 0 when every tool is there', () => {
    const r = run(probeRoot([]));
    expect([r.status, r.stdout, r.stderr]).toEqual([0, '', '']);
  });

  it('stops with exit 2, listing what is missing and the commands that install it, when it cannot install', () => {
    const r = run(probeRoot(['chromium', 'minisat', 'cryptominisat', 'postgresql']));
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^npm test: missing chromium \(for .*\), postgresql \(for .*\), minisat \(for .*\), cryptominisat \(for .*\); /);
    expect(r.stderr).toContain('Debian/Ubuntu: sudo apt-get install -y chromium postgresql minisat cryptominisat\n');
    expect(r.stderr).toContain('Fedora:        sudo dnf install -y chromium postgresql-server minisat2 cryptominisat\n');
    expect(r.stderr).toContain('macOS:         brew install --cask chromium postgresql minisat cryptominisat\n');
  });

  it('never installs into a probe root, even as root: a test cannot reach apt-get', () => {
    const r = run(probeRoot(['caddy']), '1');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('sudo apt-get install -y caddy\n');
  });

  it('says when a tool has no Homebrew package', () => {
    const r = run(probeRoot(['systemd']));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('macOS:         no Homebrew package for systemd');
  });

  it('lists every tool in test-tools.json once, and .ci/run is npm ci then npm test', () => {
    expect(new Set(tools.map((t) => t.package)).size).toBe(tools.length);
    const ci = readFileSync(join(import.meta.dirname, '..', '.ci', 'run'), 'utf8');
    expect(ci).not.toMatch(/apt-get/);
    expect(ci).toMatch(/npm ci[^\n]*\nnpm test\n$/);
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'));
    expect(pkg.scripts.test).toMatch(/^node scripts\/test-setup\.mjs && /);
  });
});
