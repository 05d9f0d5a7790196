// Test helpers for the server: an in-process app on a free port and a tiny cookie-keeping client.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { createNonolabServer, type NonolabServer } from './app.ts';
import type { Serving } from './serving.ts';
import { tempDir } from '../tests/support/tempDirs.ts';

export interface TestServer {
  url: string;
  dataDir: string;
  nonolab: NonolabServer;
  close(): Promise<void>;
}

export async function startTestServer(
  opts: { configPath?: string; dataDir?: string; clock?: () => number; startLimitPerMinute?: number; serving?: Serving; staticDir?: string } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDir('nonolab-test-');
  const nonolab = createNonolabServer({
    dataDir,
    configPath: opts.configPath ?? join(import.meta.dirname, '..', 'study-config', 'study.json'),
    logger: () => {},
    clock: opts.clock,
    startLimitPerMinute: opts.startLimitPerMinute,
    serving: opts.serving,
    staticDir: opts.staticDir,
  });
  const http: Server = await new Promise((resolve) => {
    const s = createServer(nonolab.handler).listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    nonolab,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => {
          nonolab.close();
          resolve();
        });
      }),
  };
}

/** A participant's HTTP client: keeps the token cookie like a browser would. */
export class Participant {
  cookie = '';
  constructor(readonly base: string) {}

  async call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const res = await fetch(this.base + path, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(this.cookie ? { cookie: this.cookie } : {}) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0];
    const text = await res.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, json };
  }
}

/** A valid client event for tests. */
export function event(sessionId: string, seq: number, overrides: Record<string, unknown> = {}) {
  return {
    session_id: sessionId,
    seq,
    step: 0,
    phase: 'consent',
    puzzle_id: null,
    position: null,
    t_mono: seq * 10,
    t_wall: 1_780_000_000_000 + seq,
    source: 'mouse',
    type: 'visibility',
    payload: { state: 'visible' },
    ...overrides,
  };
}

/** Every record of a session's NDJSON file, parsed (tests read the files the server wrote). */
export function sessionRecords(dataDir: string, sessionId: string): { origin: string; type: string; seq?: number }[] {
  return readFileSync(join(dataDir, 'sessions', `${sessionId}.ndjson`), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as { origin: string; type: string; seq?: number });
}

/** Wait (polling every 5 ms) until the condition holds. */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
}
