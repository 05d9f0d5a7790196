// Test support: one real server on a (tweaked) default study and one Chromium, shared by the tests of a file (or of a
// describe block: one per store in a suite parameterised over SQLite and PostgreSQL).
import { afterAll, beforeAll } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { defaultConfig, startServer, writeConfig, type RunningServer } from './server.ts';
import type { StudyConfig } from '../../shared/schema/config.ts';
import Database from 'better-sqlite3';
import { databaseFor, type StoreKind } from './postgres.ts';
import { rowsMentioning } from './testServer.ts';
import { readDbLogs } from '../reliability/verify.ts';

export interface StudyFixture {
  readonly browser: Browser;
  readonly server: RunningServer;
  readonly config: StudyConfig;
  /** The PostgreSQL database the server runs on (undefined: SQLite + NDJSON in its data directory). */
  readonly databaseUrl: string | undefined;
  /** A puzzle's solution, read from the config (the test knows it; the page must not). */
  solutionOf(puzzleId: string): string[];
  /** A session's log, parsed (its NDJSON file, or its rows in PostgreSQL). */
  readLog(sessionId: string): Promise<Record<string, any>[]>;
  /** Every session with records. */
  sessionIds(): Promise<string[]>;
  /** What the store still holds that names a session (a withdrawal must leave nothing): see `storedTraces`. */
  tracesOf(sessionId: string): Promise<string[]>;
}

/**
 * Everything a store holds that names `needle`: on PostgreSQL every row of every table whose text contains it; on the
 * embedded store the session's NDJSON file if it is there, and every row of the data directory's SQLite databases
 * (nonolab.sqlite, admin.sqlite) that contains it.
 */
export async function storedTraces(store: { dataDir: string; databaseUrl?: string }, needle: string): Promise<string[]> {
  if (store.databaseUrl) return rowsMentioning(store.databaseUrl, needle);
  const found: string[] = [];
  const file = join(store.dataDir, 'sessions', `${needle}.ndjson`);
  if (existsSync(file)) found.push(file);
  for (const name of ['nonolab.sqlite', 'admin.sqlite']) {
    const path = join(store.dataDir, name);
    if (!existsSync(path)) continue;
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
      for (const t of tables)
        for (const row of db.prepare(`SELECT * FROM "${t}"`).all())
          if (JSON.stringify(row).includes(needle)) found.push(`${name} ${t}: ${JSON.stringify(row)}`);
    } finally {
      db.close();
    }
  }
  return found;
}

/** Registers beforeAll/afterAll: the default study changed by `tweak`, served on a temporary data directory. */
/** `base`: the config to start from (default: the default study in English only, defaultConfig()). */
export function studyFixture(tweak: (config: StudyConfig) => void, opts: { env?: Record<string, string>; store?: StoreKind; base?: () => StudyConfig } = {}): StudyFixture {
  let databaseUrl: string | undefined;
  let browser: Browser | undefined;
  let server: RunningServer | undefined;
  let config: StudyConfig | undefined;
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not ready: use it inside a test`);
    return value;
  };
  beforeAll(async () => {
    config = (opts.base ?? defaultConfig)();
    tweak(config);
    databaseUrl = await databaseFor(opts.store ?? 'sqlite');
    server = await startServer({ configPath: writeConfig(config), env: { ...opts.env, ...(databaseUrl ? { NONOLAB_DATABASE_URL: databaseUrl } : {}) } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return {
    get browser() {
      return need(browser, 'the browser');
    },
    get server() {
      return need(server, 'the server');
    },
    get config() {
      return need(config, 'the config');
    },
    get databaseUrl() {
      return databaseUrl;
    },
    solutionOf(puzzleId) {
      const p = [...this.config.puzzles, ...this.config.practice_puzzles].find((q) => q.id === puzzleId);
      if (!p?.solution) throw new Error(`no solution for ${puzzleId}`);
      return p.solution;
    },
    async readLog(sessionId) {
      if (databaseUrl) return (await readDbLogs(databaseUrl)).get(sessionId)?.records ?? [];
      return readFileSync(join(this.server.dataDir, 'sessions', `${sessionId}.ndjson`), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, any>);
    },
    async sessionIds() {
      if (databaseUrl) return [...(await readDbLogs(databaseUrl)).keys()];
      return readdirSync(join(this.server.dataDir, 'sessions'))
        .filter((f) => f.endsWith('.ndjson'))
        .map((f) => f.slice(0, -'.ndjson'.length));
    },
    tracesOf(sessionId) {
      return storedTraces({ dataDir: this.server.dataDir, databaseUrl }, sessionId);
    },
  };
}
