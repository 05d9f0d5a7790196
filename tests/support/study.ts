// Test support: one real server on a (tweaked) default study and one Chromium, shared by the tests of a file (or of a
// describe block: one per store in a suite parameterised over SQLite and PostgreSQL).
import { afterAll, beforeAll } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { defaultConfig, startServer, writeConfig, type RunningServer } from './server.ts';
import type { StudyConfig } from '../../shared/schema/config.ts';
import { databaseFor, type StoreKind } from './postgres.ts';
import { readDbLogs } from '../reliability/verify.ts';

export interface StudyFixture {
  readonly browser: Browser;
  readonly server: RunningServer;
  readonly config: StudyConfig;
  /** A puzzle's solution, read from the config (the test knows it; the page must not). */
  solutionOf(puzzleId: string): string[];
  /** A session's log, parsed (its NDJSON file, or its rows in PostgreSQL). */
  readLog(sessionId: string): Promise<Record<string, any>[]>;
  /** Every session with records. */
  sessionIds(): Promise<string[]>;
}

/** Registers beforeAll/afterAll: the default study changed by `tweak`, served on a temporary data directory. */
export function studyFixture(tweak: (config: StudyConfig) => void, opts: { env?: Record<string, string>; store?: StoreKind } = {}): StudyFixture {
  let databaseUrl: string | undefined;
  let browser: Browser | undefined;
  let server: RunningServer | undefined;
  let config: StudyConfig | undefined;
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not ready: use it inside a test`);
    return value;
  };
  beforeAll(async () => {
    config = defaultConfig();
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
  };
}
