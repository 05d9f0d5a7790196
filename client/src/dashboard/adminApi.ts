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

/** Called when any request answers 401 (the login ran out): the dashboard shows the login again. */
let onUnauthorized: () => void = () => {};
export function setUnauthorizedHandler(fn: () => void): void {
  onUnauthorized = fn;
}

async function call<T extends z.ZodType>(schema: T, method: string, path: string, body?: unknown): Promise<z.infer<T>> {
  const res = await fetch(`/api/admin${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const json = (await res.json().catch(() => ({}))) as { error?: string };
  if (res.status === 401 && path !== '/login') onUnauthorized();
  if (!res.ok) throw new AdminApiError(res.status, json.error ?? `HTTP ${res.status}`);
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new AdminApiError(0, `unexpected answer from ${path}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

export const adminApi = {
  me: () => call(Ok, 'GET', '/me'),
  login: (password: string) => call(Ok, 'POST', '/login', { password }),
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

export const liveUrl = '/api/admin/live';
export const sessionLiveUrl = (id: string) => `/api/admin/sessions/${encodeURIComponent(id)}/live`;
export const exportUrl = (id: string, includeFlagged: boolean) => `/api/admin/exports/${encodeURIComponent(id)}${includeFlagged ? '?include_flagged=1' : ''}`;
