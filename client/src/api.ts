// The participant API as typed functions; every response is checked with its zod schema.
import type { z } from 'zod';
import { BatchAck, CheckResponse, CompleteResponse, CurrentSession, HintResponse, PublicRecruitment, SessionState } from '../../shared/schema/api.ts';
import type { CheckRequest, HintRequest, StartSessionRequest } from '../../shared/schema/api.ts';
import type { ClientEvent } from '../../shared/schema/event.ts';
import { apiBaseFor } from './apiBase.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The error answer's other fields (e.g. `seq` of a refused event). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

async function call<T extends z.ZodType>(schema: T, method: string, path: string, body?: unknown): Promise<z.infer<T>> {
  const base = typeof location === 'undefined' ? '' : apiBaseFor(location.pathname);
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const json = (await res.json().catch(() => ({}))) as { error?: string };
  if (!res.ok) throw new ApiError(res.status, json.error ?? `HTTP ${res.status}`, json);
  return schema.parse(json);
}

export const api = {
  resume: () => call(SessionState, 'GET', '/api/session'),
  recruitment: (lang?: string) => call(PublicRecruitment, 'GET', `/api/recruitment${lang ? `?lang=${encodeURIComponent(lang)}` : ''}`),
  /** This browser's session, or null on a first visit (no token yet); a 401 only for a token the server does not know. */
  current: async () => (await call(CurrentSession, 'GET', '/api/session/current')).session,
  start: (req: StartSessionRequest) => call(SessionState, 'POST', '/api/sessions', req),
  sendEvents: (events: ClientEvent[]) => call(BatchAck, 'POST', '/api/session/events', { events }),
  check: (req: CheckRequest) => call(CheckResponse, 'POST', '/api/session/check', req),
  hint: (req: HintRequest) => call(HintResponse, 'POST', '/api/session/hint', req),
  complete: (lastSeq: number) => call(CompleteResponse, 'POST', '/api/session/complete', { last_seq: lastSeq }),
};
