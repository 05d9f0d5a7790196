// The experimenter API as typed functions; every response is checked with its zod schema.
import { z } from 'zod';
import { StudyConfig } from '../../../shared/schema/config.ts';
import { Liveness, PoolBalance, PoolSequence, SessionFlag, SessionSummary } from '../../../shared/study/summary.ts';
import { LookupResponse, RecruitmentState, type RecruitmentUpdate } from '../../../shared/schema/admin.ts';
import { Funnel } from '../../../shared/study/funnel.ts';
import { readRecords, type LogRecord } from './records.ts';

export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The answer's `issues` (e.g. what is wrong with an uploaded study config), when it has them. */
    readonly issues: string[] = [],
  ) {
    super(message);
  }
}

export const Overview = z.object({
  study: z.object({ id: z.string(), title: z.string(), config_hash: z.string(), version: z.string(), app_version: z.string().nullable() }),
  config: StudyConfig,
  counts: z.object({ by_status: z.record(z.string(), z.number()), by_connection: z.record(z.string(), z.number()), flagged: z.number() }),
  liveness: Liveness,
  server_now: z.number(),
  /** Sessions whose log had damaged lines at start-up: valid records kept, the original in quarantine/. */
  log_repairs: z.array(z.object({ session_id: z.string(), at: z.number(), bad_lines: z.array(z.number()), kept_lines: z.number(), quarantine: z.string() })).default([]),
});
export type Overview = z.infer<typeof Overview>;

export const SessionsResponse = z.object({ server_now: z.number(), liveness: Liveness, sessions: z.array(SessionSummary) });
export type SessionsResponse = z.infer<typeof SessionsResponse>;

export const LiveChanges = z.object({
  server_now: z.number(),
  messages: z.array(z.union([z.object({ type: z.literal('summary'), summary: SessionSummary }), z.object({ type: z.literal('removed'), session_id: z.string() })])),
});
export type LiveChanges = z.infer<typeof LiveChanges>;

export const PoolResponse = z.object({ balance: PoolBalance, sequences: z.array(PoolSequence) });
export type PoolResponse = z.infer<typeof PoolResponse>;

export const ExportList = z.object({ exports: z.array(z.object({ id: z.string(), label: z.string(), filename: z.string(), content_type: z.string() })) });
export type ExportList = z.infer<typeof ExportList>;

const RecordsResponse = z.object({ session_id: z.string(), records: z.array(z.record(z.string(), z.unknown())) });

/** One push of the session stream (`/sessions/:id/live`): the whole log first (initial), then each durable batch. */
export const RecordsPush = z.object({ records: z.array(z.record(z.string(), z.unknown())), initial: z.boolean().optional() });
export type RecordsPush = z.infer<typeof RecordsPush>;
const Ok = z.object({}).passthrough();

/** The server's studies and accounts (server/admin/adminHost.ts). */
export const StudyInfo = z.object({
  slug: z.string(),
  study_id: z.string(),
  title: z.string(),
  config_hash: z.string(),
  version: z.number().nullable(),
  first: z.boolean(),
  archived: z.boolean(),
  role: z.enum(['owner', 'viewer']).nullable(),
  links: z.object({ participant: z.string(), kiosk: z.string(), prolific: z.string(), sona: z.string(), api: z.string(), admin_api: z.string() }),
});
export type StudyInfo = z.infer<typeof StudyInfo>;
const StudiesResponse = z.object({ studies: z.array(StudyInfo) });
const Me = z.object({ account: z.object({ name: z.string(), admin: z.boolean() }).optional(), studies: z.array(z.object({ slug: z.string(), role: z.enum(['owner', 'viewer']) })).optional() }).passthrough();
export type Me = z.infer<typeof Me>;
const MembersResponse = z.object({ members: z.array(z.object({ name: z.string(), role: z.enum(['owner', 'viewer']) })) });
const AccountsResponse = z.object({ accounts: z.array(z.object({ name: z.string(), admin: z.boolean(), studies: z.array(z.object({ slug: z.string(), role: z.string() })) })) });

/** Called when any request answers 401 (the login ran out): the dashboard shows the login again. */
let onUnauthorized: () => void = () => {};
export function setUnauthorizedHandler(fn: () => void): void {
  onUnauthorized = fn;
}

/**
 * The study the dashboard shows: `?study=<slug>` in its address (the first study without it). Its routes are under
 * /api/admin/studies/<slug>/; the server's own (login, me, studies, accounts) are not a study's.
 */
export const studySlug: string | null = typeof location === 'undefined' ? null : (/^[a-z0-9][a-z0-9-]{0,39}$/.exec(new URLSearchParams(location.search).get('study') ?? '')?.[0] ?? null);
const studyPrefix = studySlug ? `/studies/${studySlug}` : '';
const SERVER_ROUTE = /^\/(login|logout|me|studies|accounts)(\/|$)/;

async function call<T extends z.ZodType>(schema: T, method: string, path: string, body?: unknown): Promise<z.infer<T>> {
  const res = await fetch(`/api/admin${SERVER_ROUTE.test(path) ? '' : studyPrefix}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const json = (await res.json().catch(() => ({}))) as { error?: string; issues?: unknown };
  if (res.status === 401 && path !== '/login') onUnauthorized();
  if (!res.ok) throw new AdminApiError(res.status, json.error ?? `HTTP ${res.status}`, Array.isArray(json.issues) ? json.issues.map(String) : []);
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new AdminApiError(0, `unexpected answer from ${path}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

export const adminApi = {
  me: () => call(Me, 'GET', '/me'),
  login: (password: string, name?: string) => call(Ok, 'POST', '/login', name ? { name, password } : { password }),
  studies: () => call(StudiesResponse, 'GET', '/studies'),
  addStudy: (slug: string, config: string) => call(z.object({ study: StudyInfo }), 'POST', '/studies', { slug, config }),
  members: (slug: string) => call(MembersResponse, 'GET', `/studies/${encodeURIComponent(slug)}/members`),
  setMember: (slug: string, name: string, role: 'owner' | 'viewer' | null) => call(MembersResponse, 'POST', `/studies/${encodeURIComponent(slug)}/members`, { name, role }),
  accounts: () => call(AccountsResponse, 'GET', '/accounts'),
  addAccount: (name: string, password: string, admin: boolean) => call(Ok, 'POST', '/accounts', { name, password, admin }),
  logout: () => call(Ok, 'POST', '/logout', {}),
  overview: () => call(Overview, 'GET', '/overview'),
  sessions: () => call(SessionsResponse, 'GET', '/sessions'),
  records: async (id: string): Promise<LogRecord[]> => readRecords((await call(RecordsResponse, 'GET', `/sessions/${encodeURIComponent(id)}/events`)).records),
  pool: () => call(PoolResponse, 'GET', '/pool'),
  exports: () => call(ExportList, 'GET', '/exports'),
  withdraw: (id: string) => call(Ok, 'POST', `/sessions/${encodeURIComponent(id)}/withdraw`, { confirm: id }),
  flag: (id: string, flag: SessionFlag | null) => call(Ok, 'POST', `/sessions/${encodeURIComponent(id)}/flag`, { flag }),
  extend: (id: string, minutes: number) => call(Ok, 'POST', `/sessions/${encodeURIComponent(id)}/extend`, { minutes }),
  end: (id: string) => call(Ok, 'POST', `/sessions/${encodeURIComponent(id)}/end`, {}),
  recruitment: () => call(RecruitmentState, 'GET', '/recruitment'),
  setRecruitment: (update: RecruitmentUpdate) => call(RecruitmentState, 'POST', '/recruitment', update),
  lookup: (q: string) => call(LookupResponse, 'GET', `/lookup?q=${encodeURIComponent(q)}`),
  funnel: (includeFlagged: boolean) => call(Funnel, 'GET', `/funnel${includeFlagged ? '?include_flagged=1' : ''}`),
};

export const liveUrl = `/api/admin${studyPrefix}/live`;
export const sessionLiveUrl = (id: string) => `/api/admin${studyPrefix}/sessions/${encodeURIComponent(id)}/live`;
export const exportUrl = (id: string, includeFlagged: boolean) => `/api/admin${studyPrefix}/exports/${encodeURIComponent(id)}${includeFlagged ? '?include_flagged=1' : ''}`;
