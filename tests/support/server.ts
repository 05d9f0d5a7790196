// Test support: run the real server (`tsx server/main.ts`) as a child process on a free port and a temporary data dir.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { StudyConfig } from '../../shared/schema/config.ts';
import { tempDir } from './tempDirs.ts';
import { ADMIN_ACCOUNT, StudyRegistry } from '../../store/studies.ts';
import { loadStudyConfig, sha256Hex } from '../../node/studyConfig.ts';
import { loadedStudy } from '../../shared/study/config.ts';

export const repoRoot = resolve(import.meta.dirname, '..', '..');

export interface RunningServer {
  url: string;
  dataDir: string;
  configPath: string;
  process: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export function defaultConfig(): StudyConfig {
  // English only, as the tests that change the default study's texts, items or phases expect (a declared language
  // would need their translations: validate-config refuses the config otherwise). multilingualConfig() keeps them.
  const { languages: _languages, ...config } = multilingualConfig();
  return config;
}

/** The default study as it ships: English, German and Arabic (config `languages`). */
export function multilingualConfig(): StudyConfig {
  return JSON.parse(readFileSync(join(repoRoot, 'study-config', 'study.json'), 'utf8')) as StudyConfig;
}

/** Write a (modified) config into a fresh temporary directory and return its path. */
export function writeConfig(config: unknown, dir = tempDir('nonolab-config-')): string {
  const path = join(dir, 'study.json');
  writeFileSync(path, JSON.stringify(config, null, 1));
  return path;
}

/** The slug of the second study every test server holds (many studies on one server), unless told otherwise. */
export const SECOND_STUDY = 'second';

/**
 * A second study in a data directory's registry, beside the first (the same config under another id): so the suites
 * that drive the first study run on a server holding two, as a lab's server does. Owned by the admin account.
 */
export async function addSecondStudy(dataDir: string, configPath: string): Promise<void> {
  const registry = StudyRegistry.open(dataDir);
  try {
    if (await registry.study(SECOND_STUDY)) return;
    const loaded = loadStudyConfig(configPath);
    const second = loadedStudy({ ...loaded.config, id: `${loaded.config.id}-second`, title: `${loaded.config.title} (second study)` }, sha256Hex);
    const config = second.config;
    const now = Date.now();
    if (!(await registry.account(ADMIN_ACCOUNT))) await registry.addAccount({ name: ADMIN_ACCOUNT, password_hash: null, admin: true, now, by: null });
    await registry.addStudy({ slug: SECOND_STUDY, study_id: config.id, title: config.title, config_hash: second.hash, config_json: JSON.stringify(config), now, by: 'test' });
    await registry.setMember(SECOND_STUDY, ADMIN_ACCOUNT, 'owner', now, 'test');
  } finally {
    await registry.close();
  }
}

/** `entry`: the server's script run by node (default: server/main.ts through tsx; a compiled dist/node/server.js runs as is). */
export async function startServer(opts: { configPath?: string; dataDir?: string; env?: Record<string, string>; entry?: string; secondStudy?: boolean } = {}): Promise<RunningServer> {
  const dataDir = opts.dataDir ?? tempDir('nonolab-data-');
  const configPath = opts.configPath ?? join(repoRoot, 'study-config', 'study.json');
  // On the embedded store only: with NONOLAB_DATABASE_URL the registry is in the database (a fresh one per test, made
  // by the server at its start), where this data-directory helper does not reach.
  if (opts.secondStudy !== false && !opts.env?.NONOLAB_DATABASE_URL) await addSecondStudy(dataDir, configPath);
  const child = spawn(process.execPath, opts.entry ? [opts.entry] : ['--import', 'tsx', join(repoRoot, 'server', 'main.ts')], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', NONOLAB_DATA_DIR: dataDir, NONOLAB_CONFIG: configPath, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 30_000);
    const onData = () => {
      const m = /at (https?:\/\/localhost:\d+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolvePromise(m[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    dataDir,
    configPath,
    process: child,
    output: () => out,
    stop: (signal: NodeJS.Signals = 'SIGTERM') =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill(signal);
      }),
  };
}
