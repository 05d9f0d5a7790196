// The Express app: participant API routes (thin over StudyService), security middleware, the built client.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import expressStaticGzip from 'express-static-gzip';
import compression from 'compression';
import { rateLimit } from 'express-rate-limit';
import { existsSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { CheckRequest, CompleteRequest, HintRequest, ParticipantWithdrawRequest, StartSessionRequest } from '../shared/schema/api.ts';
import type { EventStore } from '../store/eventLog.ts';
import { openStores } from '../store/stores.ts';
import type { StudyStore } from '../store/store.ts';
import { PgStore, STORE_UNAVAILABLE, storeUnavailable } from '../store/pgStore.ts';
import { HttpError } from './httpError.ts';
import { StudyService } from './studyService.ts';
import { loadStudyConfig, type LoadedStudy } from '../node/studyConfig.ts';
import { appVersion } from '../node/version.ts';
import { createAdminRouter, type AdminGate, type AdminRouter } from './admin/router.ts';
import { cookieValue, endAnswer, jsonBody, parseBody } from './requestBody.ts';
import { eventsLane, isEventsRequest } from './eventsLane.ts';
import { studyTextIn } from '../shared/i18n/studyTexts.ts';
import { recruitmentState } from './recruitment.ts';
import { PLAIN_HTTP, helmetOptions, type Serving } from './serving.ts';

export const TOKEN_COOKIE = 'nonolab_token';
const DEFAULT_TOKEN_COOKIE = TOKEN_COOKIE;
/** New sessions allowed per client address per minute, unless NONOLAB_START_LIMIT says otherwise. */
export const DEFAULT_START_LIMIT = 60;
/** Largest request body taken (JSON). */
export const BODY_LIMIT = 1024 * 1024;

export interface ServerOptions {
  dataDir: string;
  configPath: string;
  /** Built client (vite build output); served with an SPA fallback when present. */
  staticDir?: string;
  appVersion?: string;
  logger?: (message: string) => void;
  /** Injected clock (ms since the epoch), for tests of timing rules. */
  clock?: () => number;
  /** Session starts allowed per IP per minute (NONOLAB_START_LIMIT). */
  startLimitPerMinute?: number;
  /** Tests of crash safety: a throw at a named durable step stands for the process dying there (StudyService). */
  crashPoint?: (point: string) => void | Promise<void>;
  /** How the browser reaches the server (server/serving.ts): headers, cookie flags, trusted proxies. Plain HTTP if not given. */
  serving?: Serving;
  /** `postgres://…`: sessions, pool and events in PostgreSQL (NONOLAB_DATABASE_URL); otherwise SQLite + NDJSON in dataDir. */
  databaseUrl?: string;
  /** The experimenter password of the admin account; defaults to NONOLAB_ADMIN_PASSWORD, else one is generated and printed once. */
  adminPassword?: string;
}

/** One study's server inside a host of many (server/studyHost.ts): its config given, its cookie, the host's logins. */
export interface StudyServerOptions extends ServerOptions {
  /** The study (else read from configPath). */
  study?: LoadedStudy;
  /** The participant token's cookie (each study its own, so one browser can take part in two). */
  tokenCookie?: string;
  /** Who is logged in (the host's accounts): the admin router then mounts no login routes of its own. */
  adminGate?: AdminGate;
  /** On PostgreSQL, the schema of a study beyond the first (store/studies.ts: schemaOf); none: the first study's. */
  schema?: string;
}

export interface NonolabServer {
  /** The node:http request listener: event batches to the events lane (eventsLane.ts), everything else to `app`. */
  handler: RequestListener;
  app: express.Express;
  service: StudyService;
  store: StudyStore;
  log: EventStore;
  study: LoadedStudy;
  /** The experimenter API's router (mounted at /api/admin): its routes are what the role checks walk. */
  adminRouter: AdminRouter;
  /** Closes the logs and the database; resolves once nothing more is written into the data directory. */
  close(): Promise<void>;
}

/**
 * helmet's security headers, the same on every response, computed once: helmet (with the serving mode's options,
 * `helmetOptions` in serving.ts) is run against a recording response at start-up, and what it set and removed is
 * replayed instead of rebuilding the headers (the CSP string among them) per request. `null` if helmet did not finish
 * synchronously (then helmet itself is used).
 */
export function recordedSecurityHeaders(options: HelmetOptions = {}): { set: [string, string | number | readonly string[]][]; removed: string[] } | null {
  const real = helmet(options);
  const set: [string, string | number | readonly string[]][] = [];
  const removed: string[] = [];
  let finished = false;
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => void set.push([name, value]),
    removeHeader: (name: string) => void removed.push(name),
    getHeader: () => undefined,
    locals: {},
  };
  try {
    real({ headers: {}, method: 'GET', url: '/' } as unknown as Request, recorder as unknown as Response, (err?: unknown) => {
      finished = err === undefined;
    });
  } catch {
    finished = false;
  }
  return finished ? { set, removed } : null;
}

/** helmet's headers as middleware, replayed from `recordedSecurityHeaders` (helmet itself if they could not be recorded). */
export function securityHeaders(options: HelmetOptions = {}, recorded = recordedSecurityHeaders(options)): RequestHandler {
  if (!recorded) return helmet(options);
  const { set, removed } = recorded;
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of set) res.setHeader(name, value);
    next();
  };
}

/** Vite's content-hashed assets (`assets/name-HASH.ext`, compressed copies too) are immutable; anything else is revalidated. */
export function cacheControlFor(path: string): string {
  return /[\\/]assets[\\/][^\\/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+(\.(br|gz))?$/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * Many processes on one database: the service's feed (the dashboard's live view) carries the other processes' records
 * and status changes too (LISTEN/NOTIFY), and this process's status changes go out to them. (Records go out with
 * their commit: pgStore.ts.)
 */
async function relayFeed(store: PgStore, service: StudyService): Promise<void> {
  let relaying = false;
  service.feed.on('session', (sessionId, status) => {
    if (!relaying) void store.publishSession(sessionId, status).catch(() => {});
  });
  await store.listen({
    appended: (sessionId, records) => service.feed.emit('appended', sessionId, records),
    session: (sessionId, status) => {
      relaying = true;
      try {
        service.feed.emit('session', sessionId, status);
      } finally {
        relaying = false;
      }
    },
  });
}

/** One study's server: its store, service, participant API and admin API. */
export async function createStudyServer(opts: StudyServerOptions): Promise<NonolabServer> {
  const log = opts.logger ?? ((m: string) => console.log(m));
  const study = opts.study ?? loadStudyConfig(opts.configPath);
  const TOKEN_COOKIE = opts.tokenCookie ?? DEFAULT_TOKEN_COOKIE;
  const { store, events, close: closeStores } = await openStores({ dataDir: opts.dataDir, databaseUrl: opts.databaseUrl, schema: opts.schema });
  const service = new StudyService({
    study,
    store,
    log: events,
    appVersion: opts.appVersion ?? appVersion(),
    clock: opts.clock,
    crashPoint: opts.crashPoint,
  });
  for (const message of await service.recover()) log(`recovery: ${message}`);
  if (store instanceof PgStore) await relayFeed(store, service);

  const app = express();
  app.disable('x-powered-by');
  // JSON answers are never cached (no ETag hashing of every body); static files keep theirs (serve-static's own).
  app.set('etag', false);
  const serving = opts.serving ?? PLAIN_HTTP;
  // Behind a reverse proxy, req.ip (the rate limiters' key) and req.secure come from its X-Forwarded-* headers.
  app.set('trust proxy', serving.trustProxy);
  const recorded = recordedSecurityHeaders(helmetOptions(serving));
  app.use(securityHeaders(helmetOptions(serving), recorded));
  app.use(jsonBody(BODY_LIMIT));

  const token = (req: Request): string | undefined => cookieValue(req, TOKEN_COOKIE);
  const setToken = (res: Response, value: string) =>
    res.cookie(TOKEN_COOKIE, value, { httpOnly: true, sameSite: 'lax', secure: serving.secure, path: '/', maxAge: 1000 * 60 * 60 * 24 * 30 });

  // The participant's JSON answers (the study's client config in the session state, a resumed board's moves) are
  // compressed when above 1 KB; the events lane, the static files (precompressed) and the admin streams are not.
  app.use(['/api/sessions', '/api/session'], compression({ threshold: 1024 }));

  app.get('/api/health', (_req, res) => {
    res.json({ ok: true, study: study.config.id, config_hash: study.hash });
  });

  // Whether new visitors may start (no counts): the participant page asks before a kiosk label or after a refused start.
  app.get('/api/recruitment', async (req, res) => {
    const { accepting, closed_title, closed_message } = await recruitmentState(store, study.config, { count: false });
    // In the language the link asks for (?lang=), where the study declares it.
    const lang = typeof req.query.lang === 'string' ? req.query.lang : undefined;
    const languages = study.config.languages;
    res.json({
      accepting,
      closed_title: studyTextIn(languages, lang, 'recruitment.closed_title', closed_title),
      closed_message: studyTextIn(languages, lang, 'recruitment.closed_message', closed_message),
    });
  });

  const startLimiter = rateLimit({
    windowMs: 60_000,
    limit: opts.startLimitPerMinute ?? Number(process.env.NONOLAB_START_LIMIT ?? DEFAULT_START_LIMIT),
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    message: { error: 'too many new sessions from this address; wait a minute and try again' },
  });

  // A start must say it is JSON: a bare request (a link preview, a crawler, a script) leases no sequence.
  const requireJson: RequestHandler = (req, _res, next) => next(req.is('application/json') ? undefined : new HttpError(415, 'a session starts with a JSON body (content-type: application/json)'));
  app.post('/api/sessions', requireJson, startLimiter, async (req, res) => {
    const body = parseBody(StartSessionRequest, req.body);
    const { token: t, state } = await service.startSession(body);
    setToken(res, t);
    res.status(201).json(state);
  });

  app.get('/api/session', async (req, res) => {
    res.json(await service.stateOf(await service.sessionForToken(token(req))));
  });

  // The first visit asks this one: no token is no session yet (200, not an error); a token the server does not know is 401.
  app.get('/api/session/current', async (req, res) => {
    const t = token(req);
    res.json({ session: !t ? null : await service.stateOf(await service.sessionForToken(t)) });
  });

  // Each answer below goes out only after the server record it depends on is fsync'd (group commit, not blocking).
  app.post('/api/session/check', async (req, res) => {
    const row = await service.sessionForToken(token(req));
    res.json(await service.check(row, parseBody(CheckRequest, req.body)));
  });

  app.post('/api/session/hint', async (req, res) => {
    const row = await service.sessionForToken(token(req));
    res.json(await service.hint(row, parseBody(HintRequest, req.body)));
  });

  app.post('/api/session/complete', async (req, res) => {
    const row = await service.sessionForToken(token(req));
    res.json(await service.complete(row, parseBody(CompleteRequest, req.body).last_seq));
  });

  app.post('/api/session/withdraw', async (req, res) => {
    const row = await service.sessionForToken(token(req));
    parseBody(ParticipantWithdrawRequest, req.body ?? {});
    await service.withdraw(row.id, 'participant');
    res.clearCookie(TOKEN_COOKIE, { path: '/', secure: serving.secure });
    res.json({ withdrawn: true, code: study.config.completion.withdrawn_code ?? null });
  });

  const adminRouter = await createAdminRouter({
    service,
    store,
    study,
    dataDir: opts.dataDir,
    eventLog: events,
    log,
    appVersion: opts.appVersion ?? appVersion(),
    clock: opts.clock,
    secureCookies: serving.secure,
    password: opts.adminPassword,
    gate: opts.adminGate,
  });
  app.use('/api/admin', adminRouter);
  app.use('/api', (_req, _res, next) => next(new HttpError(404, 'no such API route')));
  // Paths that only normalise to /api (//api/x) are API misses too, not the participant page.
  app.use((req, _res, next) => next(/^\/{2,}api(?:\/|$)/.test(req.path) ? new HttpError(404, 'no such API route') : undefined));

  if (opts.staticDir && existsSync(opts.staticDir)) {
    // Vite's prebuilt .br/.gz beside each asset, chosen by Accept-Encoding. Hashed assets never change under their
    // name: cached for a year; index.html (which names them) is revalidated on every load, so an upgrade shows at once.
    app.use(
      expressStaticGzip(opts.staticDir, {
        enableBrotli: true,
        orderPreference: ['br', 'gzip'],
        index: 'index.html',
        serveStatic: { setHeaders: (res, path) => res.setHeader('cache-control', cacheControlFor(path)) },
      }),
    );
    // Client routes get index.html; a missing asset (an old build's, after an upgrade) is a 404, not a page of HTML.
    app.get(/^\/(?!api\/|assets\/).*/, (_req, res) => res.setHeader('cache-control', 'no-cache').sendFile(join(opts.staticDir!, 'index.html')));
  }

  // Every error as JSON; one given before the body was read closes the connection only after reading it (endAnswer).
  const sendError = (req: Request, res: Response, status: number, body: object) => {
    const text = JSON.stringify(body);
    res.status(status).type('application/json; charset=utf-8').setHeader('content-length', Buffer.byteLength(text));
    endAnswer(req, res, text);
  };
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof HttpError) {
      sendError(req, res, err.status, err.body());
      return;
    }
    const e = err as { status?: number; message?: string };
    if (e && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
      sendError(req, res, e.status, { error: e.message ?? 'bad request' });
      return;
    }
    if (storeUnavailable(err)) {
      log(`warning: ${req.method} ${req.path}: the database is unreachable (${(err as Error).message}); answered 503`);
      sendError(req, res, 503, { error: STORE_UNAVAILABLE, code: 'store_unavailable' });
      return;
    }
    log(`error: ${(err as Error)?.stack ?? String(err)}`);
    sendError(req, res, 500, { error: 'internal server error' });
  });

  // Event batches skip Express (eventsLane.ts says why), with the same headers; without recorded headers, no lane.
  const lane = recorded && eventsLane({ service, tokenCookie: TOKEN_COOKIE, bodyLimit: BODY_LIMIT, headers: recorded.set, log });
  const handler: RequestListener = (req, res) => (lane && isEventsRequest(req) ? lane(req, res) : app(req, res));

  return {
    handler,
    app,
    service,
    store,
    log: events,
    study,
    adminRouter,
    async close() {
      adminRouter.close();
      await closeStores();
    },
  };
}
