// Before any test: checks that every outside tool the suites need (scripts/test-tools.json) is there, installs what is
// missing when it can (root with apt-get: CI and the project's machines), else stops with one message and exit 2.
//
//   node scripts/test-setup.mjs       `npm test` and .ci/run run it first; quiet when everything is there
//
// For its own test only (scripts/test-setup.test.ts), two settings let it be checked without uninstalling anything:
//   NONOLAB_SETUP_PROBE_ROOT=<dir>    probe under <dir>: commands are looked for in <dir>/bin only, paths as <dir>/<path>
//   NONOLAB_SETUP_AS_ROOT=0           behave as a user who cannot install (no root), whatever the real user is
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync, readdirSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const { tools } = JSON.parse(readFileSync(join(here, 'test-tools.json'), 'utf8'));
const probeRoot = process.env.NONOLAB_SETUP_PROBE_ROOT;

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A path whose segments may hold one `*`: true when some file matches and is executable. */
function pathExists(pattern) {
  const parts = pattern.split('/').filter(Boolean);
  const walk = (base, i) => {
    if (i === parts.length) return executable(base);
    if (!parts[i].includes('*')) return walk(join(base, parts[i]), i + 1);
    const [pre, post] = parts[i].split('*');
    let names;
    try {
      names = readdirSync(base);
    } catch {
      return false;
    }
    return names.some((n) => n.startsWith(pre) && n.endsWith(post) && walk(join(base, n), i + 1));
  };
  return walk(probeRoot ?? '/', 0);
}

function commandExists(name) {
  const dirs = probeRoot ? [join(probeRoot, 'bin')] : (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  return dirs.some((d) => executable(join(d, name)));
}

const present = (tool) => (tool.probe.command ? commandExists(tool.probe.command) : pathExists(tool.probe.path));
const missingTools = () => tools.filter((t) => !present(t));

function canInstall() {
  const root = process.env.NONOLAB_SETUP_AS_ROOT ?? (process.getuid?.() === 0 ? '1' : '0');
  return root === '1' && !probeRoot && commandExists('apt-get');
}

function stop(missing, why) {
  const apt = missing.map((t) => t.package).join(' ');
  const brew = missing.filter((t) => t.brew).map((t) => t.brew);
  const noBrew = missing.filter((t) => !t.brew).map((t) => t.package);
  const dnf = missing.map((t) => t.dnf ?? t.package).join(' ');
  const lines = [
    `npm test: missing ${missing.map((t) => `${t.package} (for ${t.for})`).join(', ')}; ${why}. Install with one of:`,
    `  Debian/Ubuntu: sudo apt-get install -y ${apt}`,
    `  Fedora:        sudo dnf install -y ${dnf}`,
    brew.length ? `  macOS:         brew install ${brew.join(' ')}${noBrew.length ? ` (no Homebrew package: ${noBrew.join(', ')})` : ''}` : `  macOS:         no Homebrew package for ${noBrew.join(', ')}`,
  ];
  process.stderr.write(`${lines.join('\n')}\n`);
  process.exit(2);
}

const missing = missingTools();
if (missing.length === 0) process.exit(0);
if (!canInstall()) stop(missing, commandExists('apt-get') ? 'not root, so not installing them' : 'no apt-get here, so not installing them');

// apt-get's own output (debconf notes included) is shown only when it fails, so each package is one line.
const run = (args) => {
  const r = spawnSync('apt-get', args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (r.status !== 0) process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
  return r;
};
process.stdout.write('npm test: apt-get update\n');
if (run(['update', '-qq']).status !== 0) stop(missing, 'apt-get update failed');
for (const tool of missing) {
  process.stdout.write(`npm test: installing ${tool.package}, for ${tool.for}\n`);
  if (run(['install', '-y', '-qq', tool.package]).status !== 0) stop([tool], `apt-get install ${tool.package} failed`);
}
const still = missingTools();
if (still.length) stop(still, 'still missing after apt-get install');
