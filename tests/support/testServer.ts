// Test support for the server: an in-process app on a free port and a tiny cookie-keeping client.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { NonolabServer } from '../../server/app.ts';
import { createNonolabServer } from '../../server/studyHost.ts';
import { SqliteStore } from '../../store/store.ts';
import type { Serving } from '../../server/serving.ts';
import { tempDir } from './tempDirs.ts';
import { databaseFor, type StoreKind } from './postgres.ts';
import type { Phase, StudyConfig } from '../../shared/schema/config.ts';
import { expandSteps, type Step } from '../../shared/study/steps.ts';
import { firstChoice, surveyAnswers } from '../../shared/study/phases/simulate.ts';
import { completeLines } from '../../shared/log/index.ts';

/** The SQLite database of a test server on the embedded store (tests of SQLite's own rows). */
export function sqliteDb(server: TestServer): Database.Database {
  const store = server.nonolab.store;
  if (!(store instanceof SqliteStore)) throw new Error('this test server does not run on SQLite');
  return store.db;
}

export interface TestServer {
  url: string;
  dataDir: string;
  /** The PostgreSQL database it runs on (undefined: SQLite + NDJSON in dataDir). */
  databaseUrl?: string;
  nonolab: NonolabServer;
  close(): Promise<void>;
}

export async function startTestServer(
  opts: {
    configPath?: string;
    dataDir?: string;
    clock?: () => number;
    startLimitPerMinute?: number;
    crashPoint?: (point: string) => void | Promise<void>;
    logger?: (m: string) => void;
    serving?: Serving;
    staticDir?: string;
    /** PostgreSQL instead of SQLite + NDJSON: a database URL, or 'postgres' for a fresh database of the test cluster. */
    databaseUrl?: string;
    store?: StoreKind;
  } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDir('nonolab-test-');
  const databaseUrl = opts.databaseUrl ?? (opts.store ? await databaseFor(opts.store) : undefined);
  const nonolab = await createNonolabServer({
    dataDir,
    configPath: opts.configPath ?? join(import.meta.dirname, '..', '..', 'study-config', 'study.json'),
    logger: opts.logger ?? (() => {}),
    clock: opts.clock,
    startLimitPerMinute: opts.startLimitPerMinute,
    crashPoint: opts.crashPoint,
    serving: opts.serving,
    staticDir: opts.staticDir,
    databaseUrl,
  });
  const http: Server = await new Promise((resolve) => {
    const s = createServer(nonolab.handler).listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    databaseUrl,
    nonolab,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(async () => {
          await nonolab.close();
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

/**
 * Every complete record of a session's NDJSON file, parsed (tests read the files the server wrote). A test may read
 * while the server is appending: a last line without its newline is a write still under way (the server's recovery
 * reads it the same way), not a record yet, so it is left for the next read.
 */
export function sessionRecords(dataDir: string, sessionId: string): { origin: string; type: string; seq?: number }[] {
  return completeLines(readFileSync(join(dataDir, 'sessions', `${sessionId}.ndjson`), 'utf8')).map((l) => JSON.parse(l) as { origin: string; type: string; seq?: number });
}

/** Wait (polling every 5 ms) until the condition holds. */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
}

/** Answers valid for a survey's items (and meeting its eligibility criteria, if any): each item's first choice. */
export function validAnswers(phase: Phase): Record<string, unknown> {
  return surveyAnswers(phase, firstChoice);
}

/**
 * Play a session honestly through steps `from`..`to - 1`, as the client would: each step's own records (consent,
 * answers valid for the survey, a rating), each puzzle checked solved on the server, then its step_end. Sends the
 * events (in one batch unless a check needs them first) and returns the last seq used.
 */
export async function playSteps(p: Participant, session: { session_id: string; sequence: string[] }, config: StudyConfig, to: number, opts: { from?: number; seq?: number } = {}): Promise<number> {
  let steps = expandSteps(config.phases, session.sequence);
  let seq = opts.seq ?? 0;
  let batch: ReturnType<typeof event>[] = [];
  const send = async () => {
    if (batch.length === 0) return;
    const r = await p.call('POST', '/api/session/events', { events: batch });
    if (r.status !== 200) throw new Error(`playSteps: ${r.status} ${JSON.stringify(r.json)}`);
    batch = [];
  };
  const push = (step: Step, type: string, payload: unknown) => {
    seq += 1;
    batch.push(event(session.session_id, seq, { step: step.index, phase: step.phase_id, puzzle_id: step.puzzle_id, position: step.position, type, payload }));
  };
  for (let i = opts.from ?? 0; i < Math.min(to, steps.length); i++) {
    const step = steps[i];
    const phase = config.phases.find((ph) => ph.id === step.phase_id)!;
    push(step, 'step_start', { kind: step.kind });
    let reason = 'done';
    if (step.kind === 'consent') push(step, 'consent', { agreed: true });
    else if (step.kind === 'survey' || step.kind === 'post_survey') push(step, 'survey_submit', { survey_id: phase.id, answers: validAnswers(phase) });
    else if (step.kind === 'rating') push(step, 'rating', { difficulty: 3, guessing: 'no' });
    else if (step.kind === 'puzzle') {
      await send();
      const puzzle = config.puzzles.find((q) => q.id === step.puzzle_id)!;
      const check = await p.call('POST', '/api/session/check', { puzzle_id: puzzle.id, position: step.position, rows: puzzle.solution!.map((r) => r.replaceAll('.', 'x')) });
      if (!check.json?.solved) throw new Error(`playSteps: check ${check.status} ${JSON.stringify(check.json)}`);
      push(step, 'submit_result', { solved: true });
      reason = 'solved';
    }
    push(step, 'step_end', { kind: step.kind, reason });
    if (step.kind === 'consent' && session.sequence.length === 0) {
      // Leased at consent: the caller's session object learns its sequence, as the client does.
      await send();
      session.sequence.push(...((await p.call('GET', '/api/session')).json.sequence as string[]));
      steps = expandSteps(config.phases, session.sequence);
    }
  }
  await send();
  return seq;
}

/** Every row of every table of a PostgreSQL database whose text contains `needle` (a withdrawal must leave none). */
export async function rowsMentioning(databaseUrl: string, needle: string): Promise<string[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Every schema's tables: the first study's (public), the registry's and each further study's (study_<slug>).
    const tables = (
      await client.query("SELECT table_schema, table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')")
    ).rows as { table_schema: string; table_name: string }[];
    const found: string[] = [];
    for (const { table_schema: schema, table_name: t } of tables) {
      const rows = await client.query(`SELECT t::text AS row FROM "${schema}"."${t}" t WHERE strpos(t::text, $1) > 0`, [needle]);
      for (const r of rows.rows as { row: string }[]) found.push(`${schema === 'public' ? '' : `${schema}.`}${t}: ${r.row}`);
    }
    return found;
  } finally {
    await client.end();
  }
}

/** A step's envelope fields, as the page stamps its events. */
export const stampOf = (step: Step) => ({ step: step.index, phase: step.phase_id, puzzle_id: step.puzzle_id, position: step.position });

/**
 * A new session of `config` on `server`, played honestly to its first study puzzle and that step started: the
 * participant, the session id, the last seq used, the expanded steps and the puzzle step.
 */
export async function startFirstPuzzle(server: { url: string }, config: StudyConfig): Promise<{ p: Participant; id: string; seq: number; steps: Step[]; first: Step }> {
  const p = new Participant(server.url);
  const s = (await p.call('POST', '/api/sessions', {})).json;
  const last = await playSteps(p, s, config, 4);
  const sequence = (await p.call('GET', '/api/session')).json.sequence as string[];
  const steps = expandSteps(config.phases, sequence);
  const first = steps[4];
  const r = await p.call('POST', '/api/session/events', { events: [event(s.session_id, last + 1, { ...stampOf(first), type: 'step_start', payload: { kind: 'puzzle' } })] });
  if (r.status !== 200) throw new Error(`startFirstPuzzle: ${r.status} ${JSON.stringify(r.json)}`);
  return { p, id: s.session_id as string, seq: last + 1, steps, first };
}
