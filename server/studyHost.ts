// Many studies on one server: the registry's studies (store/studies.ts), one study server each (its own store, service,
// pool, logs, recruitment, live stream: createStudyServer in app.ts), and one request handler in front of them.
// Embedded, the registry is studies.sqlite and each study beyond the first has its store in studies/<slug>/; on
// PostgreSQL the registry is in the database (schema nonolab_registry) and each study beyond the first has its tables
// in its own schema (study_<slug>), so every process on the database serves every study and sees the same accounts.
//   /s/<slug>/…                   the study's participant page, /s/<slug>/api/… its participant API
//   /api/admin/studies/<slug>/…   its admin API (today's /api/admin/… routes), for members of the study
//   /, /api/…, /api/admin/…       the first study, exactly as a single-study server answered
// plus the server's own admin routes (adminHost.ts): login by account, the studies and accounts.
// Every admin request is checked here before a study sees it: no login is 401, a non-member (or a study that does not
// exist: the same answer) 404, a role that does not allow the route 403 (server/admin/accounts.ts: roleAllows).
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { StudyConfig, describeIssues } from '../shared/schema/config.ts';
import { loadedStudy, type LoadedStudy } from '../shared/study/config.ts';
import { sha256Hex } from '../node/studyConfig.ts';
import { ADMIN_ACCOUNT, SLUG_PATTERN, StudyRegistry, schemaOf, type AccountRecord, type Role, type StudyRecord } from '../store/studies.ts';
import { REGISTRY_FILE } from '../store/registryDb.ts';
import { dropStudySchema } from '../store/pgStore.ts';
import { StoreError, redactUrl } from '../store/stores.ts';
import { AdminAuth } from './admin/auth.ts';
import { AccountAuth, roleAllows } from './admin/accounts.ts';
import { ADMIN_COOKIE } from './admin/router.ts';
import { NOT_A_STUDY, adminHostApp } from './admin/adminHost.ts';
import { BODY_LIMIT, createStudyServer, TOKEN_COOKIE, type NonolabServer, type ServerOptions } from './app.ts';
import { cookieValue, endAnswer } from './requestBody.ts';
import { HttpError } from './httpError.ts';

/** A config's text as a study: parsed, validated, hashed (the hash of the text as given, as loadStudyConfig does for a file). */
export function studyFromJson(text: string): LoadedStudy {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new HttpError(400, `config: not JSON (${(err as Error).message})`);
  }
  const parsed = StudyConfig.safeParse(raw);
  if (!parsed.success) throw new HttpError(400, 'invalid study config', describeIssues(parsed.error.issues).split('\n').filter(Boolean));
  return loadedStudy(parsed.data, sha256Hex);
}

/** The first study's slug when a registry is made beside a single-study data directory: its config id, as a slug, else "main". */
export function slugFromConfigId(id: string): string {
  const slug = id.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40);
  return SLUG_PATTERN.test(slug) ? slug : 'main';
}

/** The participant token's cookie of a study: today's name for the first, one of its own for each other. */
export const tokenCookieOf = (s: Pick<StudyRecord, 'slug' | 'first'>): string => (s.first ? TOKEN_COOKIE : `${TOKEN_COOKIE}_${s.slug.replace(/-/g, '_')}`);

export interface HostedStudy {
  record: StudyRecord;
  server: NonolabServer;
}

export interface StudyHost {
  registry: StudyRegistry;
  accounts: AccountAuth;
  /** The first study's slug. */
  firstSlug: string;
  /** A loaded study (loading one added to the registry since start-up, e.g. by `nonolab study add`); undefined if none. */
  study(slug: string): Promise<HostedStudy | undefined>;
  /** Every loaded study. */
  loaded(): HostedStudy[];
  /** Add a study from a config (validated), its owner the account given. */
  addStudy(slug: string, configText: string, owner: AccountRecord | null): Promise<HostedStudy>;
  /** Delete a study (not the first): its server closed, its data directory removed, an audit row kept. */
  deleteStudy(slug: string, by: string): Promise<void>;
  /** End a login's live streams in every study. */
  endStreams(token: string): void;
  /** Sweep inactive sessions of every study. */
  sweepInactive(): Promise<void>;
}

/**
 * A JSON answer of the host's own (a refusal before any study saw the request). A small body still unread is read
 * first, as a study's routes read theirs before answering, so the connection stays usable (keep-alive); a large or
 * endless one gets the answer at once and the connection closed after it (endAnswer).
 */
const json = (req: IncomingMessage, res: ServerResponse, status: number, body: object) => {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.setHeader('content-length', Buffer.byteLength(text));
  const length = Number(req.headers['content-length'] ?? NaN);
  if (req.complete || req.destroyed || !(length >= 0 && length <= BODY_LIMIT)) return endAnswer(req, res, text);
  let done = false;
  // A client that stops sending gets the answer without waiting longer (and the connection closed).
  const stalled = setTimeout(() => answer(), 5_000);
  const answer = () => {
    if (done) return;
    done = true;
    clearTimeout(stalled);
    req.off('end', answer).off('error', answer);
    if (req.complete) res.end(text);
    else endAnswer(req, res, text);
  };
  req.on('end', answer).on('error', answer);
  req.resume();
};

export { NOT_A_STUDY } from './admin/adminHost.ts';

/**
 * A server that ran on PostgreSQL before the registry moved into the database kept it in the data directory
 * (studies.sqlite): the first time it starts with an empty registry in the database, the studies (the first's slug,
 * so its links stay; the others were not served on PostgreSQL then, so they have no data yet), every account (its
 * password hash: the same password logs in) and the memberships are carried over, in one transaction (another process
 * doing the same at once: one of them does it).
 */
async function carryEmbeddedRegistry(dataDir: string, registry: StudyRegistry, now: number, log: (m: string) => void): Promise<void> {
  if (!existsSync(join(dataDir, REGISTRY_FILE))) return;
  const embedded = StudyRegistry.open(dataDir);
  try {
    const studies = await embedded.studies();
    if (!studies.some((s) => s.first)) return;
    const accounts = await embedded.accounts();
    const members = (await Promise.all(studies.map((s) => embedded.members(s.slug)))).flat();
    try {
      await registry.transaction(async (r) => {
        if (await r.firstStudy()) return;
        for (const s of studies) {
          await r.addStudy({ ...s, now: s.created_at, by: null });
          if (s.archived) await r.setArchived(s.slug, true, now, null);
        }
        for (const a of accounts) if (!(await r.account(a.name))) await r.addAccount({ name: a.name, password_hash: a.password_hash, admin: a.admin, now: a.created_at, by: null });
        for (const m of members) await r.setMember(m.slug, m.account, m.role, now, null);
        await r.audit(now, null, 'registry_import', `from ${REGISTRY_FILE}: ${studies.length} study(ies), ${accounts.length} account(s), ${members.length} membership(s)`);
      });
    } catch (err) {
      if (await registry.firstStudy()) return; // carried by another process meanwhile
      throw err;
    }
    log(`registry: carried ${studies.length} study(ies), ${accounts.length} account(s) and ${members.length} membership(s) from ${join(dataDir, REGISTRY_FILE)} into the database`);
    for (const s of studies)
      if (!s.first && existsSync(join(StudyRegistry.dataDirOf(dataDir, s), 'nonolab.sqlite')))
        log(`warning: study '${s.slug}' has data of the embedded store in ${StudyRegistry.dataDirOf(dataDir, s)}; it is served from the database now (see nonolab migrate)`);
  } finally {
    await embedded.close();
  }
}

export async function createStudyHost(opts: ServerOptions): Promise<NonolabServer & { host: StudyHost }> {
  const log = opts.logger ?? ((m: string) => console.log(m));
  const clock = opts.clock ?? Date.now;
  let accounts: AccountAuth | undefined;
  const gate = { check: async (token: string | undefined) => (accounts ? ((await accounts.check(token))?.expires_at ?? null) : null) };

  const first = await createStudyServer({ ...opts, adminGate: gate });
  let registry: StudyRegistry;
  try {
    registry = await StudyRegistry.openFor({ dataDir: opts.dataDir, databaseUrl: opts.databaseUrl });
  } catch (err) {
    await first.close();
    if (opts.databaseUrl) throw new StoreError(`NONOLAB_DATABASE_URL: cannot keep the registry of studies at ${redactUrl(opts.databaseUrl)} (schema nonolab_registry): ${(err as Error).message}`);
    throw err;
  }
  const hosted = new Map<string, HostedStudy>();
  const loading = new Map<string, Promise<HostedStudy | undefined>>();
  try {
    const adminAuth = await AdminAuth.open({ store: first.store, password: opts.adminPassword ?? process.env.NONOLAB_ADMIN_PASSWORD, log, clock });
    accounts = new AccountAuth(registry, adminAuth, clock);
    const config = first.study;
    const version = { study_id: config.config.id, title: config.config.title, config_hash: config.hash, config_json: JSON.stringify(config.config), now: clock(), by: null };
    if (opts.databaseUrl && !(await registry.firstStudy())) await carryEmbeddedRegistry(opts.dataDir, registry, clock(), log);
    let firstRecord = await registry.firstStudy();
    if (!firstRecord) {
      try {
        firstRecord = await registry.addStudy({ slug: slugFromConfigId(config.config.id), first: true, ...version });
      } catch (err) {
        // Another process on the same database added it meanwhile: as good (its version is made current below).
        firstRecord = await registry.firstStudy();
        if (!firstRecord) throw err;
      }
    }
    await registry.setVersion(firstRecord.slug, version);
    firstRecord = (await registry.firstStudy())!;
    await accounts.ensureAdminAccount(firstRecord.slug);
    hosted.set(firstRecord.slug, { record: firstRecord, server: first });
  } catch (err) {
    await registry.close();
    await first.close();
    throw err;
  }
  const firstSlug = [...hosted.keys()][0];
  const auth = accounts;

  const open = async (record: StudyRecord): Promise<HostedStudy> => {
    const server = await createStudyServer({
      ...opts,
      dataDir: StudyRegistry.dataDirOf(opts.dataDir, record),
      schema: opts.databaseUrl ? schemaOf(record) : undefined,
      study: studyFromJson(record.config_json),
      tokenCookie: tokenCookieOf(record),
      adminGate: gate,
      staticDir: undefined,
      logger: (m) => log(`[${record.slug}] ${m}`),
    });
    return { record, server };
  };

  const study = async (slug: string): Promise<HostedStudy | undefined> => {
    const record = SLUG_PATTERN.test(slug) ? await registry.study(slug) : undefined;
    const have = hosted.get(slug);
    if (have && record && !have.record.first && have.record.created_at !== record.created_at) {
      // Deleted and added again under the same slug (through another process): the study open here is not that one.
      hosted.delete(slug);
      await have.server.close();
    } else if (have && record) {
      have.record = record;
      return have;
    }
    if (!record) {
      // Deleted meanwhile (through another process): close what was open.
      const gone = hosted.get(slug);
      if (gone && !gone.record.first) {
        hosted.delete(slug);
        await gone.server.close();
      }
      return undefined;
    }
    let pending = loading.get(slug);
    if (!pending) {
      pending = open(record).then(
        (h) => {
          hosted.set(slug, h);
          loading.delete(slug);
          return h;
        },
        (err) => {
          loading.delete(slug);
          throw err;
        },
      );
      loading.set(slug, pending);
    }
    return pending;
  };

  for (const record of await registry.studies()) {
    if (record.first) continue;
    await study(record.slug);
  }

  const host: StudyHost = {
    registry,
    accounts: auth,
    firstSlug,
    study,
    loaded: () => [...hosted.values()],
    async addStudy(slug, configText, owner) {
      const loaded = studyFromJson(configText);
      const now = clock();
      const record = await registry.transaction(async (r) => {
        const added = await r.addStudy({ slug, study_id: loaded.config.id, title: loaded.config.title, config_hash: loaded.hash, config_json: configText, now, by: owner?.name ?? null });
        if (owner) await r.setMember(slug, owner.name, 'owner', now, owner.name);
        return added;
      });
      return (await study(record.slug))!;
    },
    async deleteStudy(slug, by) {
      const have = await study(slug);
      if (!have) throw new HttpError(404, NOT_A_STUDY);
      if (have.record.first) throw new HttpError(409, `study '${slug}' is the first study (served at /): it cannot be deleted`);
      hosted.delete(slug);
      await have.server.close();
      rmSync(StudyRegistry.dataDirOf(opts.dataDir, have.record), { recursive: true, force: true });
      const schema = schemaOf(have.record);
      if (opts.databaseUrl && schema) await dropStudySchema(opts.databaseUrl, schema);
      await registry.deleteStudy(slug, clock(), by);
    },
    endStreams(token) {
      for (const h of hosted.values()) h.server.adminRouter.endStreams(token);
    },
    async sweepInactive() {
      // Every study of the registry, those added (or deleted) through another process too: opened (or closed) first.
      for (const record of await registry.studies()) if (!record.first) await study(record.slug).catch((err: unknown) => log(`sweep: study '${record.slug}': ${(err as Error).message}`));
      for (const h of hosted.values()) await h.server.service.sweepInactive();
    },
  };

  const adminApp = adminHostApp({ host, firstStore: first.store, clock, serving: opts.serving, log });

  /** Who is asking about which study, and whether the route is theirs: an error to answer, else the study. */
  const admitted = async (req: IncomingMessage, slug: string, path: string): Promise<{ error: [number, string] } | { study: HostedStudy; role: Role }> => {
    const login = await auth.check(cookieValue(req, ADMIN_COOKIE));
    if (!login) return { error: [401, 'experimenter login required'] };
    const role = SLUG_PATTERN.test(slug) ? await auth.roleIn(slug, login.account) : undefined;
    const found = role && (await study(slug));
    if (!role || !found) return { error: [404, NOT_A_STUDY] };
    const method = req.method ?? 'GET';
    if (!roleAllows(role, method, path)) return { error: [403, `your role in study '${slug}' is ${role}: a viewer watches, replays and exports; this needs the owner role`] };
    if (found.record.archived && method !== 'GET' && method !== 'HEAD') return { error: [409, `study '${slug}' is archived (read-only)`] };
    return { study: found, role };
  };

  const dispatch = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? '' : url.slice(q);

    // A participant link of a study.
    const s = /^\/s\/([^/]+)(\/.*)?$/.exec(path);
    if (s) {
      const slug = decodeURIComponent(s[1]);
      const rest = s[2] ?? '';
      const found = await study(slug);
      if (!found) return json(req, res, 404, { error: NOT_A_STUDY });
      if (rest === '') {
        res.writeHead(308, { location: `/s/${slug}/${query}` }).end();
        return;
      }
      if (rest === '/api' || rest.startsWith('/api/')) {
        if (rest.startsWith('/api/admin')) return json(req, res, 404, { error: 'no such API route' });
        if (found.record.archived && req.method !== 'GET' && req.method !== 'HEAD') return json(req, res, 410, { error: 'this study has ended (archived): it takes no more participants' });
        req.url = rest + query;
        return found.server.handler(req, res);
      }
      // The page itself: the one participant app, which finds its API from its address (/s/<slug>/api).
      return first.handler(req, res);
    }

    if (path === '/api/admin' || path.startsWith('/api/admin/')) {
      const sub = path.slice('/api/admin'.length) || '/';
      const scoped = /^\/studies\/([^/]+)(\/.*)?$/.exec(sub);
      // The host's own routes: login, logout, me, the list of studies, accounts, and a study's record and members.
      if (/^\/(login|logout|me|accounts(\/.*)?|studies)\/?$/.test(sub) || (scoped && (!scoped[2] || /^\/(members|archive|delete|versions)\/?$/.test(scoped[2])))) return adminApp(req, res);
      const slug = scoped ? decodeURIComponent(scoped[1]) : firstSlug;
      const rest = scoped ? scoped[2]! : sub;
      const verdict = await admitted(req, slug, rest);
      if ('error' in verdict) return json(req, res, verdict.error[0], { error: verdict.error[1] });
      req.url = `/api/admin${rest}${query}`;
      return verdict.study.server.handler(req, res);
    }
    return first.handler(req, res);
  };

  const handler: RequestListener = (req, res) => {
    dispatch(req, res).catch((err: unknown) => {
      if (err instanceof HttpError) return json(req, res, err.status, err.body());
      log(`error: ${(err as Error)?.stack ?? String(err)}`);
      if (!res.headersSent) json(req, res, 500, { error: 'internal server error' });
      else res.destroy();
    });
  };

  return {
    ...first,
    handler,
    host,
    async close() {
      for (const p of loading.values()) await p.catch(() => undefined);
      for (const h of hosted.values()) if (!h.record.first) await h.server.close();
      await first.close();
      await registry.close();
    },
  };
}

export { ADMIN_ACCOUNT };

/**
 * The server: the first study at `/`, `/api/…` and `/api/admin/…` as always, and every other study of the data
 * directory's registry at `/s/<slug>/`. (Here, not in app.ts: app.ts makes one study's server and imports no host.)
 */
export async function createNonolabServer(opts: ServerOptions): Promise<NonolabServer & { host: StudyHost }> {
  return createStudyHost(opts);
}
