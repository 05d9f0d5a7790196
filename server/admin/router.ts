// The experimenter API (/api/admin): login, live session summaries (SSE), session records, the pool, actions, exports.
import express, { type Request, type Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import { join } from 'node:path';
import { z } from 'zod';
import { expandSteps } from '../../shared/study/steps.ts';
import type { LoggedEvent } from '../../shared/schema/event.ts';
import { stampServer } from '../../shared/schema/stamp.ts';
import { DEFAULT_LIVENESS, SessionFlag, connectionState, poolBalance, type Liveness, type PoolSequence, type SessionSummary } from '../../shared/study/summary.ts';
import { EventLog, type EventStore } from '../../store/eventLog.ts';
import { exportEvents, exportPsychDs, exportRawZip, exportAttempts, exportParticipants, exportRows, exportTrajectories, codebookCsv, type MetaOf } from '../exports.ts';
import { panelRoutes } from './panels.ts';
import type { StudyStore } from '../../store/store.ts';
import type { LoadedStudy } from '../../shared/study/config.ts';
import { HttpError } from '../httpError.ts';
import type { StudyService } from '../studyService.ts';
import { AdminAuth } from './auth.ts';
import { LiveSummaries, StreamsByToken, type LiveMessage } from './live.ts';
import { AdminMarks } from './marks.ts';
import { StoreLoginLimit } from './loginLimit.ts';
import { cookieValue, parseBody } from '../requestBody.ts';

export const ADMIN_COOKIE = 'nonolab_admin';

export interface AdminRouterOptions {
  service: StudyService;
  /** The study's store; it keeps the experimenter's password, logins and marks too (whichever database it is). */
  store: StudyStore;
  study: LoadedStudy;
  dataDir: string;
  /** The experimenter password; defaults to NONOLAB_ADMIN_PASSWORD, else one is generated and printed once. */
  password?: string;
  log?: (message: string) => void;
  appVersion?: string;
  clock?: () => number;
  /** Failed logins allowed per client address per 15 minutes. */
  loginLimit?: number;
  /** The server's event log (reads then stop at what is durable); one of the router's own otherwise. */
  eventLog?: EventStore;
  /** Mark the login cookie `Secure` (the browser talks https: server/serving.ts). */
  secureCookies?: boolean;
  /**
   * Logins checked elsewhere (the server's accounts, server/studyHost.ts): no /login, /logout or /me here, and no
   * password of the router's own; the gate says whether a login token is live (its expiry) for every request and stream write.
   */
  gate?: AdminGate;
}

export type AdminRouter = express.Router & { close(): void; live: LiveSummaries; endStreams(token: string): void };

/** Whether a login token is live: its expiry, else null. */
export interface AdminGate {
  check(token: string | undefined): Promise<number | null>;
}

const LoginRequest = z.object({ password: z.string().min(1).max(1_000) });
const WithdrawRequest = z.object({ confirm: z.string() });
const FlagRequest = z.object({ flag: SessionFlag.nullable() });
const ExtendRequest = z.object({ minutes: z.number().int().min(1).max(24 * 60) });
const SessionId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);


/** An export the dashboard can download: streamed to the response as it is produced. */
interface ExportDef {
  id: string;
  label: string;
  filename: string;
  content_type: string;
  run: (sessionIds: string[], out: Response) => Promise<void>;
}

/** A Router for /api/admin, plus `close()` to stop its live feed listeners (once the password is set up in the store). */
export async function createAdminRouter(opts: AdminRouterOptions): Promise<AdminRouter> {
  const { service, store, study } = opts;
  const clock = opts.clock ?? Date.now;
  const log = opts.log ?? ((m: string) => console.log(m));
  const auth: AdminGate & Partial<Pick<AdminAuth, 'login' | 'logout'>> = opts.gate ?? (await AdminAuth.open({ store, password: opts.password ?? process.env.NONOLAB_ADMIN_PASSWORD, log, clock }));
  const marks = new AdminMarks(store);
  const ownLog = opts.eventLog === undefined;
  const events = opts.eventLog ?? new EventLog(join(opts.dataDir, 'sessions'));
  const live = new LiveSummaries({ service, store, study, log: events, marks, clock });
  const timing = study.config.timing;
  const liveness: Liveness = { ...DEFAULT_LIVENESS, abandoned_ms: timing.inactivity_minutes * 60_000 };
  const puzzleIds = study.config.puzzles.map((p) => p.id);
  const studyInfo = { id: study.config.id, title: study.config.title, config_hash: study.hash };

  const metaOf: MetaOf = async (id) => {
    const row = await store.session(id);
    return row && { mode: row.mode, label: row.label, status: row.status };
  };
  const panels = panelRoutes({ store, study, marks, live, clock });
  const csv = 'text/csv; charset=utf-8';
  const exportsAvailable: ExportDef[] = [
    { id: 'events', label: 'Events (one row per event)', filename: 'events.csv', content_type: csv, run: (ids, out) => exportEvents(events, ids, out) },
    { id: 'raw', label: 'Raw NDJSON logs, with the codebook and trajectories (zip)', filename: 'raw-ndjson.zip', content_type: 'application/zip', run: (ids, out) => exportRawZip(events, ids, out, study.config) },
    { id: 'psychds', label: 'psych-DS dataset, with the participant and trajectory tables and codebooks (zip)', filename: 'psych-ds.zip', content_type: 'application/zip', run: (ids, out) => exportPsychDs(events, ids, studyInfo, out, { config: study.config, metaOf }) },
    { id: 'attempts', label: 'Attempts (one row per participant and puzzle)', filename: 'attempts.csv', content_type: csv, run: (ids, out) => exportAttempts(events, ids, study.config, out) },
    { id: 'trajectories', label: 'Trajectories (one row per cell change, labelled by the reasoning that forces it)', filename: 'trajectories.csv', content_type: csv, run: (ids, out) => exportTrajectories(events, ids, study.config, out) },
    { id: 'participants', label: 'Participants (one wide row each: every survey item, ratings, expertise, code)', filename: 'participants.csv', content_type: csv, run: (ids, out) => exportParticipants(events, ids, study.config, out, metaOf) },
    { id: 'codebook', label: 'Codebook of the participant table (item, question, options, scale)', filename: 'codebook.csv', content_type: csv, run: async (_ids, out) => void out.write(codebookCsv(study.config)) },
    { id: 'funnel', label: 'Drop-out funnel (one row per step)', filename: 'funnel.csv', content_type: csv, run: async (ids, out) => exportRows(await panels.funnelRows(ids), panels.funnelColumns, out) },
    { id: 'codes', label: 'Completion codes (code to session)', filename: 'completion-codes.csv', content_type: csv, run: async (ids, out) => exportRows(await panels.codeRows(ids), panels.codeColumns, out) },
    { id: 'panel-ids', label: 'Panel IDs (admin only: Prolific/SONA ids to sessions, for approvals and bonuses)', filename: 'panel-ids.csv', content_type: csv, run: async (ids, out) => exportRows(await panels.panelRows(ids), panels.panelColumns, out) },
  ];

  /**
   * Append server records to a session's NDJSON log through the service's group commit, so its write pipeline and
   * the live feed see them.
   */
  const appendToLog = async (sessionId: string, records: readonly LoggedEvent[]): Promise<boolean> => {
    await service.appendRecords(sessionId, records); // durable (fsync'd) before we answer
    return true;
  };

  /** Lists carry only each session's current step; GET /sessions/:id has them all. */
  const brief = (s: SessionSummary): SessionSummary => ({ ...s, steps: s.steps.slice(-1) });

  const router = express.Router() as AdminRouter;
  const streams = new StreamsByToken();
  const cookieOf = (req: Request): string | undefined => cookieValue(req, ADMIN_COOKIE);

  router.use((_req, res, next) => {
    res.setHeader('cache-control', 'no-store');
    next();
  });
  // A cross-site form cannot send JSON without a CORS preflight: with SameSite=Strict this closes CSRF.
  router.use((req, _res, next) => {
    if (req.method === 'POST' && !req.is('application/json')) throw new HttpError(415, 'send a JSON body (content-type: application/json)');
    next();
  });

  const loginLimiter = rateLimit({
    windowMs: 15 * 60_000,
    limit: opts.loginLimit ?? 10,
    skipSuccessfulRequests: true,
    // Counted in the store: on a shared database, across every process and machine.
    store: new StoreLoginLimit(store),
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, res) => {
      res.status(429).json({ error: 'too many failed logins; wait 15 minutes and try again' });
    },
  });

  if (!opts.gate) router.post('/login', loginLimiter, async (req, res) => {
    const { password } = parseBody(LoginRequest, req.body ?? {});
    const session = await auth.login!(password);
    if (!session) throw new HttpError(401, 'wrong password');
    res.cookie(ADMIN_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: opts.secureCookies ?? req.secure,
      path: '/api/admin',
      maxAge: session.expires_at - clock(),
    });
    res.json({ ok: true, expires_at: session.expires_at });
  });

  if (!opts.gate) router.post('/logout', async (req, res) => {
    const token = cookieOf(req);
    await auth.logout!(token);
    streams.closeAll(token);
    res.clearCookie(ADMIN_COOKIE, { path: '/api/admin', secure: opts.secureCookies ?? req.secure });
    res.json({ ok: true });
  });

  // Everything below needs a login; unknown admin routes answer 401 too, not 404, to an outsider.
  router.use(async (req, _res, next) => {
    if ((await auth.check(cookieOf(req))) === null) throw new HttpError(401, 'experimenter login required');
    next();
  });

  if (!opts.gate) router.get('/me', async (req, res) => {
    res.json({ ok: true, expires_at: await auth.check(cookieOf(req)) });
  });

  router.get('/overview', async (_req, res) => {
    await live.ready();
    const by_status: Record<string, number> = {};
    for (const row of await store.sessions()) by_status[row.status] = (by_status[row.status] ?? 0) + 1;
    const now = clock();
    const by_connection: Record<string, number> = {};
    let flagged = 0;
    for (const s of live.all()) {
      const c = connectionState(s, now, liveness);
      by_connection[c] = (by_connection[c] ?? 0) + 1;
      if (s.flag) flagged++;
    }
    res.json({
      study: { ...studyInfo, version: study.config.version, app_version: opts.appVersion ?? null },
      config: study.config,
      counts: { by_status, by_connection, flagged },
      liveness,
      server_now: now,
      log_repairs: await store.logRepairs(),
    });
  });

  router.get('/sessions', async (_req, res) => {
    await live.ready();
    res.json({ server_now: clock(), liveness, sessions: live.all().map(brief) });
  });

  const sessionParam = async (req: Request): Promise<string> => {
    const id = SessionId.safeParse(req.params.id);
    if (!id.success) throw new HttpError(400, 'session id: letters, digits, _ and - only');
    if (!(await store.session(id.data))) throw new HttpError(404, `no session '${id.data}'`);
    return id.data;
  };

  router.get('/sessions/:id', async (req, res) => {
    const id = await sessionParam(req);
    await live.refresh(id); // its status and marks as the store has them now (any process may have changed them)
    const summary = await live.get(id);
    res.json({ server_now: clock(), liveness, summary: summary ?? null, steps: expandSteps(study.config.phases, summary?.sequence ?? []) });
  });

  router.get('/sessions/:id/events', async (req, res) => {
    const id = await sessionParam(req);
    res.json({ session_id: id, records: await events.read(id) });
  });

  /**
   * An SSE stream for the login in the request's cookie. Each write first checks that login in the store (one that
   * expired, or ended through any process, ends the stream), and logging out here ends every stream of its token at
   * once (`streams.closeAll`). Writes (and the end) are chained, so the checks never reorder them.
   */
  const openStream = (req: Request, res: Response, onClose: () => void) => {
    const token = cookieOf(req)!;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.flushHeaders();
    const end = () => {
      if (!res.writableEnded) res.end();
    };
    let queue: Promise<void> = Promise.resolve();
    const write = (text: string | null) => {
      queue = queue.then(async () => {
        if (res.writableEnded) return;
        if (text === null || (await auth.check(token)) === null) end();
        else res.write(text);
      }).catch(end);
    };
    const ping = setInterval(() => write(': ping\n\n'), 20_000);
    ping.unref();
    const forget = streams.add(token, end);
    res.on('close', () => {
      clearInterval(ping);
      forget();
      onClose();
    });
    return {
      send: (event: string, data: unknown) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
      /** End the stream after what was sent before. */
      end: () => write(null),
    };
  };

  /** Live summaries: a snapshot, then coalesced changes. */
  router.get('/live', async (req, res) => {
    await live.ready();
    let unsubscribe = () => {};
    const { send } = openStream(req, res, () => unsubscribe());
    send('snapshot', { server_now: clock(), liveness, sessions: live.all().map(brief) });
    unsubscribe = live.subscribe((messages: LiveMessage[]) =>
      send('changes', { server_now: clock(), messages: messages.map((m) => (m.type === 'summary' ? { ...m, summary: brief(m.summary) } : m)) }),
    );
  });

  /**
   * One session's records: everything so far, then each batch as it is made durable (the live mirror). The feed is
   * watched before the log is read, so nothing appended meanwhile is missed; a record can then reach the stream twice
   * (in the log read and from the feed, or late from another process's notice, which can arrive after the read), so
   * each record is sent once: one already sent (the same line) is dropped from a live batch.
   */
  router.get('/sessions/:id/live', async (req, res) => {
    const id = await sessionParam(req);
    const sent = new Set<string>();
    const unsent = (records: readonly LoggedEvent[]) =>
      records.filter((r) => {
        const line = JSON.stringify(r);
        if (sent.has(line)) return false;
        sent.add(line);
        return true;
      });
    let stream: { send: (event: string, data: unknown) => void; end: () => void } | null = null;
    const early: LoggedEvent[][] = [];
    const deliver = (records: readonly LoggedEvent[]) => {
      if (records.length === 0) {
        stream!.send('removed', { session_id: id });
        stream!.end();
        return;
      }
      const fresh = unsent(records);
      if (fresh.length) stream!.send('records', { records: fresh });
    };
    const unwatch = live.watch(id, (records) => (stream ? deliver(records) : early.push([...records])));
    let initial: LoggedEvent[];
    try {
      initial = await events.read(id);
    } catch (err) {
      unwatch();
      throw err;
    }
    stream = openStream(req, res, unwatch);
    for (const r of initial) sent.add(JSON.stringify(r));
    stream.send('records', { records: initial, initial: true });
    for (const records of early) deliver(records);
  });

  router.get('/pool', async (_req, res) => {
    const flags = await marks.all();
    const sequences: PoolSequence[] = (await store.allSequences()).map((s) => ({
      id: s.id,
      round: s.round,
      puzzle_ids: s.puzzle_ids,
      status: s.status,
      session_id: s.session_id,
      flag: (s.session_id && flags.get(s.session_id)?.flag) || null,
    }));
    res.json({ balance: poolBalance(sequences, puzzleIds), sequences });
  });

  router.post('/sessions/:id/withdraw', async (req, res) => {
    const id = await sessionParam(req);
    if (parseBody(WithdrawRequest, req.body ?? {}).confirm !== id) throw new HttpError(400, 'to withdraw, confirm with the session id');
    // What is about to go, for the experimenter's confirmation: counted before the deletion, nothing of it kept after.
    const row = await store.session(id);
    const records = (await events.read(id)).length;
    const marked = Boolean(await store.marksOf(id));
    const panel = Boolean(await store.panelOf(id));
    const seq = row ? await store.sequence(row.sequence_id) : undefined;
    await service.withdraw(id, 'experimenter'); // its marks go with its rows
    res.json({
      withdrawn: true,
      session_id: id,
      deleted: { records, marks: marked, panel_ids: panel },
      sequence_freed: seq && seq.session_id === id ? { id: seq.id, round: seq.round } : null,
    });
  });

  router.post('/sessions/:id/flag', async (req, res) => {
    const id = await sessionParam(req);
    const { flag } = parseBody(FlagRequest, req.body ?? {});
    if (!(await marks.set(id, { flag }, clock()))) throw new HttpError(410, 'this session was withdrawn');
    // The log is the complete record: the analysis and the dashboard read marks from `session_mark` records (the last one holds).
    const wrote = await appendToLog(id, [
      stampServer({ type: 'session_mark', session_id: id, payload: { mark: flag, by: 'experimenter' } }, { t_server: clock(), config_hash: study.hash, app_version: opts.appVersion ?? 'unknown' }),
    ]);
    await live.refresh(id);
    res.json({ session_id: id, flag, logged: wrote });
  });

  /** Give an inactive session more time: a fresh inactivity clock, and an abandoned one comes back if its lease is still its own. */
  router.post('/sessions/:id/extend', async (req, res) => {
    const id = await sessionParam(req);
    const { minutes } = parseBody(ExtendRequest, req.body ?? {});
    const row = (await store.session(id))!;
    if (row.status !== 'active' && row.status !== 'abandoned') throw new HttpError(409, `the session is ${row.status}; only an unfinished session can be extended`);
    const now = clock();
    const lease = await store.sequence(row.sequence_id);
    const status = row.status === 'abandoned' && lease?.session_id === id && lease.status === 'leased' ? 'active' : row.status;
    if (row.status === 'abandoned' && status !== 'active') throw new HttpError(409, 'the session gave its sequence back to the pool; it cannot be resumed');
    await store.setStatus(id, status, now);
    const extended_until = now + minutes * 60_000;
    await marks.set(id, { extended_until, ended_at: null }, now);
    service.feed.emit('session', id, status);
    await live.refresh(id);
    res.json({ session_id: id, status, extended_until });
  });

  /** End an inactive session by hand: abandoned, as after the inactivity timeout (lease rule included). */
  router.post('/sessions/:id/end', async (req, res) => {
    const id = await sessionParam(req);
    const row = (await store.session(id))!;
    if (row.status !== 'active') throw new HttpError(409, `the session is ${row.status}; only an active session can be ended`);
    const now = clock();
    const steps = expandSteps(study.config.phases, (await live.get(id))?.sequence ?? []);
    const firstPuzzle = steps.findIndex((s) => s.kind === 'puzzle');
    const returnLease = timing.return_lease_if_no_puzzle_done && firstPuzzle >= 0 && row.step <= firstPuzzle;
    await store.transaction(async (tx) => {
      await tx.setStatus(id, 'abandoned', now);
      if (returnLease) await tx.setSequence(row.sequence_id, 'free', null);
    });
    await marks.set(id, { ended_at: now, extended_until: null }, now);
    service.feed.emit('session', id, 'abandoned');
    await live.refresh(id);
    res.json({ session_id: id, status: 'abandoned', lease_returned: returnLease });
  });

  panels.mount(router);

  router.get('/exports', (_req, res) => {
    res.json({ exports: exportsAvailable.map(({ id, label, filename, content_type }) => ({ id, label, filename, content_type })) });
  });

  /**
   * Stream an export; sessions flagged pilot/test/excluded are left out unless ?include_flagged=1. `?session=ID`
   * exports that one session alone, flagged or not (404 when the server has no such session).
   */
  router.get('/exports/:name', async (req, res) => {
    const def = exportsAvailable.find((e) => e.id === req.params.name);
    if (!def) throw new HttpError(404, `no export '${req.params.name}'; try ${exportsAvailable.map((e) => e.id).join(', ')}`);
    const one = req.query.session;
    if (one !== undefined && (typeof one !== 'string' || one.length === 0)) throw new HttpError(400, 'session: give one session id (?session=ID)');
    const all = (await store.sessions()).map((r) => r.id);
    let ids: string[];
    if (one !== undefined) {
      if (!all.includes(one)) throw new HttpError(404, `no session '${one}' on this server`);
      ids = [one];
    } else {
      const flagged = req.query.include_flagged === '1' ? new Set<string>() : await marks.flagged();
      ids = all.filter((id) => !flagged.has(id));
    }
    const stamp = new Date(clock()).toISOString().slice(0, 10);
    res.setHeader('content-type', def.content_type);
    res.setHeader('content-disposition', `attachment; filename="${study.config.id}-${one !== undefined ? `${one}-` : ''}${stamp}-${def.filename}"`);
    try {
      await def.run(ids, res);
      res.end();
    } catch (err) {
      log(`export ${def.id} failed: ${(err as Error).message}`);
      res.destroy(err as Error);
    }
  });

  router.close = () => {
    live.close();
    if (ownLog) events.close();
  };
  router.live = live;
  router.endStreams = (token) => streams.closeAll(token);
  return router;
}
