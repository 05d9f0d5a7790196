// Test support: one real server on a (tweaked) default study and one Chromium, shared by the tests of a file.
import { afterAll, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { defaultConfig, startServer, writeConfig, type RunningServer } from './server.ts';
import type { StudyConfig } from '../../shared/schema/config.ts';

export interface StudyFixture {
  readonly browser: Browser;
  readonly server: RunningServer;
  readonly config: StudyConfig;
  /** A puzzle's solution, read from the config (the test knows it; the page must not). */
  solutionOf(puzzleId: string): string[];
  /** A session's NDJSON log, parsed. */
  readLog(sessionId: string): Record<string, any>[];
}

/** Registers beforeAll/afterAll: the default study changed by `tweak`, served on a temporary data directory. */
export function studyFixture(tweak: (config: StudyConfig) => void, opts: { env?: Record<string, string> } = {}): StudyFixture {
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
    server = await startServer({ configPath: writeConfig(config), env: opts.env });
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
    readLog(sessionId) {
      return readFileSync(join(this.server.dataDir, 'sessions', `${sessionId}.ndjson`), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, any>);
    },
  };
}
