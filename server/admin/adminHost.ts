// The server's own admin routes, beside each study's (server/studyHost.ts): login by account, the studies an account
// sees (add, archive, delete, members, versions) and the accounts (an admin's). A study's data is never answered here.
import express, { type NextFunction, type Request, type Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import { z } from 'zod';
import type { StudyStore } from '../../store/store.ts';
import { ACCOUNT_PATTERN, ACCOUNT_RULE, RegistryError, SLUG_PATTERN, SLUG_RULE, type AccountRecord, type StudyRecord, type StudyRegistry } from '../../store/studies.ts';
import { HttpError } from '../httpError.ts';
import { cookieValue, endAnswer, jsonBody, parseBody } from '../requestBody.ts';
import { PLAIN_HTTP, helmetOptions, type Serving } from '../serving.ts';
import { BODY_LIMIT, securityHeaders } from '../app.ts';
import { ADMIN_COOKIE } from './router.ts';
import { StoreLoginLimit } from './loginLimit.ts';
import { hashPassword } from './auth.ts';
import type { AccountAuth, LoginOf } from './accounts.ts';

const LoginRequest = z.object({ name: z.string().min(1).max(64).optional(), password: z.string().min(1).max(1_000) });
const AddStudyRequest = z.object({ slug: z.string().regex(SLUG_PATTERN, SLUG_RULE), config: z.union([z.record(z.string(), z.unknown()), z.string().max(5_000_000)]) });
const MemberRequest = z.object({ name: z.string().min(1).max(64), role: z.enum(['owner', 'viewer']).nullable() });
const ArchiveRequest = z.object({ archived: z.boolean() });
const DeleteRequest = z.object({ confirm: z.string() });
const AccountRequest = z.object({ name: z.string().regex(ACCOUNT_PATTERN, ACCOUNT_RULE), password: z.string().min(8, 'a password has at least 8 characters').max(1_000), admin: z.boolean().optional() });

/** A study's links as the dashboard shows them (each also as a QR code): the participant page, its kiosk and panel forms. */
export function studyLinks(s: Pick<StudyRecord, 'slug' | 'first'>) {
  const base = s.first ? '/' : `/s/${s.slug}/`;
  return {
    participant: base,
    kiosk: `${base}?mode=kiosk`,
    prolific: `${base}?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`,
    sona: `${base}?sona_id=%SURVEY_CODE%`,
    api: s.first ? '/api/' : `/s/${s.slug}/api/`,
    admin_api: `/api/admin/studies/${s.slug}/`,
  };
}

/** What a refusal says of a study that does not exist or that the login is no member of (404: never more). */
export const NOT_A_STUDY = 'no such study';

/** What the host's own admin routes ask of the study host (server/studyHost.ts's StudyHost has it). */
export interface AdminHostOps {
  registry: StudyRegistry;
  accounts: AccountAuth;
  addStudy(slug: string, configText: string, owner: AccountRecord | null): Promise<{ record: StudyRecord }>;
  deleteStudy(slug: string, by: string): Promise<void>;
  endStreams(token: string): void;
}

export function adminHostApp(opts: { host: AdminHostOps; firstStore: StudyStore; clock: () => number; serving?: Serving; log: (m: string) => void }): express.Express {
  const { host, clock } = opts;
  const { registry, accounts } = host;
  const serving = opts.serving ?? PLAIN_HTTP;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', serving.trustProxy);
  app.use(securityHeaders(helmetOptions(serving)));
  app.use((_req, res, next) => {
    res.setHeader('cache-control', 'no-store');
    next();
  });
  app.use(jsonBody(BODY_LIMIT));
  app.use((req, _res, next) => {
    if (req.method === 'POST' && !req.is('application/json')) throw new HttpError(415, 'send a JSON body (content-type: application/json)');
    next();
  });
  const r = express.Router();
  app.use('/api/admin', r);

  const loginLimiter = rateLimit({
    windowMs: 15 * 60_000,
    limit: 10,
    skipSuccessfulRequests: true,
    store: new StoreLoginLimit(opts.firstStore),
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, res) => {
      res.status(429).json({ error: 'too many failed logins; wait 15 minutes and try again' });
    },
  });
  const cookieOf = (req: Request) => cookieValue(req, ADMIN_COOKIE);
  const who = async (req: Request): Promise<LoginOf> => {
    const login = await accounts.check(cookieOf(req));
    if (!login) throw new HttpError(401, 'experimenter login required');
    return login;
  };
  const accountInfo = (a: AccountRecord) => ({ name: a.name, admin: a.admin });
  const studyInfo = async (s: StudyRecord, role: string | undefined) => ({
    slug: s.slug,
    study_id: s.study_id,
    title: s.title,
    config_hash: s.config_hash,
    version: (await registry.versions(s.slug)).find((v) => v.config_hash === s.config_hash)?.version ?? null,
    first: s.first,
    archived: s.archived,
    role: role ?? null,
    links: studyLinks(s),
  });
  /** A study the account is a member of (else 404, as for a study that does not exist), and its role. */
  const memberStudy = async (req: Request, owner: boolean) => {
    const login = await who(req);
    const slug = String(req.params.slug);
    const record = SLUG_PATTERN.test(slug) ? await registry.study(slug) : undefined;
    const role = record && (await accounts.roleIn(slug, login.account));
    if (!record || !role) throw new HttpError(404, NOT_A_STUDY);
    if (owner && role !== 'owner') throw new HttpError(403, `your role in study '${slug}' is ${role}; this needs the owner role`);
    return { login, record, role };
  };

  r.post('/login', loginLimiter, async (req, res) => {
    const { name, password } = parseBody(LoginRequest, req.body ?? {});
    const session = await accounts.login(name, password);
    if (!session) throw new HttpError(401, name === undefined ? 'wrong password' : 'wrong name or password');
    res.cookie(ADMIN_COOKIE, session.token, { httpOnly: true, sameSite: 'strict', secure: serving.secure || req.secure, path: '/api/admin', maxAge: session.expires_at - clock() });
    res.json({ ok: true, expires_at: session.expires_at, account: accountInfo(session.account) });
  });

  r.post('/logout', async (req, res) => {
    const token = cookieOf(req);
    await accounts.logout(token);
    if (token) host.endStreams(token);
    res.clearCookie(ADMIN_COOKIE, { path: '/api/admin', secure: serving.secure || req.secure });
    res.json({ ok: true });
  });

  r.get('/me', async (req, res) => {
    const login = await who(req);
    const studies = (await registry.membershipsOf(login.account.name)).map((m) => ({ slug: m.slug, role: m.role }));
    res.json({ ok: true, expires_at: login.expires_at, account: accountInfo(login.account), studies });
  });

  r.get('/studies', async (req, res) => {
    const login = await who(req);
    const roles = new Map((await registry.membershipsOf(login.account.name)).map((m) => [m.slug, m.role]));
    res.json({ studies: await Promise.all((await registry.studies()).filter((s) => roles.has(s.slug)).map((s) => studyInfo(s, roles.get(s.slug)))) });
  });

  r.post('/studies', async (req, res) => {
    const login = await who(req);
    const body = parseBody(AddStudyRequest, req.body ?? {});
    const text = typeof body.config === 'string' ? body.config : JSON.stringify(body.config);
    const added = await registryErrorsAsync(() => host.addStudy(body.slug, text, login.account));
    res.status(201).json({ study: await studyInfo(added.record, 'owner') });
  });

  r.get('/studies/:slug', async (req, res) => {
    const { record, role } = await memberStudy(req, false);
    res.json({ study: await studyInfo(record, role), versions: await registry.versions(record.slug) });
  });

  r.get('/studies/:slug/versions', async (req, res) => {
    const { record } = await memberStudy(req, false);
    res.json({ versions: await registry.versions(record.slug) });
  });

  r.get('/studies/:slug/members', async (req, res) => {
    const { record } = await memberStudy(req, true);
    res.json({ members: (await registry.members(record.slug)).map(({ account, role }) => ({ name: account, role })) });
  });

  r.post('/studies/:slug/members', async (req, res) => {
    const { record, login } = await memberStudy(req, true);
    const { name, role } = parseBody(MemberRequest, req.body ?? {});
    const owners = (await registry.members(record.slug)).filter((m) => m.role === 'owner' && m.account !== name);
    if (role !== 'owner' && owners.length === 0) throw new HttpError(409, 'a study keeps at least one owner');
    await registryErrorsAsync(() => registry.setMember(record.slug, name, role, clock(), login.account.name));
    res.json({ members: (await registry.members(record.slug)).map(({ account, role: r2 }) => ({ name: account, role: r2 })) });
  });

  r.post('/studies/:slug/archive', async (req, res) => {
    const { record, login } = await memberStudy(req, true);
    const { archived } = parseBody(ArchiveRequest, req.body ?? {});
    await registry.setArchived(record.slug, archived, clock(), login.account.name);
    res.json({ study: await studyInfo((await registry.study(record.slug))!, 'owner') });
  });

  r.post('/studies/:slug/delete', async (req, res) => {
    const { record, login } = await memberStudy(req, true);
    if (parseBody(DeleteRequest, req.body ?? {}).confirm !== record.slug) throw new HttpError(400, 'to delete a study, confirm with its slug');
    await host.deleteStudy(record.slug, login.account.name);
    res.json({ deleted: true, slug: record.slug });
  });

  const adminOnly = async (req: Request) => {
    const login = await who(req);
    if (!login.account.admin) throw new HttpError(403, 'only an admin manages accounts');
    return login;
  };

  r.get('/accounts', async (req, res) => {
    await adminOnly(req);
    res.json({
      accounts: await Promise.all(
        (await registry.accounts()).map(async (a) => ({ ...accountInfo(a), studies: (await registry.membershipsOf(a.name)).map((m) => ({ slug: m.slug, role: m.role })) })),
      ),
    });
  });

  r.post('/accounts', async (req, res) => {
    const login = await adminOnly(req);
    const { name, password, admin } = parseBody(AccountRequest, req.body ?? {});
    const added = await registryErrorsAsync(() => registry.addAccount({ name, password_hash: hashPassword(password), admin: admin ?? false, now: clock(), by: login.account.name }));
    res.status(201).json({ account: accountInfo(added) });
  });

  r.use((_req, _res, next) => next(new HttpError(404, 'no such API route')));

  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const send = (status: number, body: object) => {
      const text = JSON.stringify(body);
      res.status(status).type('application/json; charset=utf-8').setHeader('content-length', Buffer.byteLength(text));
      endAnswer(req, res, text);
    };
    if (err instanceof HttpError) return send(err.status, err.body());
    const e = err as { status?: number; message?: string };
    if (e && typeof e.status === 'number' && e.status >= 400 && e.status < 500) return send(e.status, { error: e.message ?? 'bad request' });
    opts.log(`error: ${(err as Error)?.stack ?? String(err)}`);
    send(500, { error: 'internal server error' });
  });
  return app;
}

async function registryErrorsAsync<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof RegistryError) throw new HttpError(400, err.message);
    throw err;
  }
}
