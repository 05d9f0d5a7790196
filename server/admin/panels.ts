// Experimenter routes for panels and recruitment: open/close and target, lookup by panel id or code, the drop-out funnel, and their export tables.
import type express from 'express';
import { z } from 'zod';
import { LookupResponse, RecruitmentUpdate, type LookupMatch, type RecruitmentState } from '../../shared/schema/admin.ts';
import { dropoutFunnel, FUNNEL_COLUMNS, type Funnel } from '../../shared/study/funnel.ts';
import { expandSteps } from '../../shared/study/steps.ts';
import { normaliseCode } from '../completionCode.ts';
import { recruitmentState } from '../recruitment.ts';
import { parseBody } from '../requestBody.ts';
import type { StudyStore } from '../../store/store.ts';
import type { LoadedStudy } from '../../shared/study/config.ts';
import { HttpError } from '../httpError.ts';
import type { LiveSummaries } from './live.ts';
import type { AdminMarks } from './marks.ts';

export interface PanelRoutesOptions {
  store: StudyStore;
  study: LoadedStudy;
  marks: AdminMarks;
  live: LiveSummaries;
  clock: () => number;
}

type Row = Record<string, string | number | null>;

const LookupQuery = z.string().trim().min(1, 'give q: a panel id, a completion code or a session id').max(200);
/** At most this many matches (the study-wide code matches every completed session). */
const LOOKUP_LIMIT = 100;

const iso = (ms: number | null | undefined): string | null => (typeof ms === 'number' ? new Date(ms).toISOString() : null);

export const PANEL_COLUMNS = ['provider', 'panel_id', 'panel_study_id', 'panel_session_id', 'session_id', 'status', 'mark', 'completion_code', 'started_at', 'last_activity_at', 'completed_at'];
export const CODE_COLUMNS = ['completion_code', 'session_id', 'link_type', 'kiosk_label', 'status', 'mark', 'completed_at'];

export function panelRoutes(opts: PanelRoutesOptions) {
  const { store, study, marks, live, clock } = opts;
  const timeline = () => {
    const phase = study.config.phases.find((p) => p.kind === 'puzzles');
    const count = phase?.kind === 'puzzles' ? phase.count : 0;
    return expandSteps(study.config.phases, study.config.puzzles.slice(0, count).map((p) => p.id));
  };
  const recruitment = (): Promise<RecruitmentState> => recruitmentState(store, study.config);

  /** One session as a lookup match: its status, code, panel ids and mark. */
  const match = async (sessionId: string, matchedBy: LookupMatch['matched_by']): Promise<LookupMatch | null> => {
    const row = await store.session(sessionId);
    if (!row) return null;
    const completion = await store.completionOf(sessionId);
    const panel = await store.panelOf(sessionId);
    return {
      matched_by: matchedBy,
      session_id: row.id,
      status: row.status,
      mode: row.mode,
      label: row.label,
      flag: (await marks.of(row.id)).flag,
      created_at: row.created_at,
      updated_at: row.updated_at,
      completion_code: completion?.code ?? null,
      completed_at: completion?.completed_at ?? null,
      panel: panel ? { provider: panel.provider, participant_id: panel.participant_id, study_id: panel.study_id, session_id: panel.panel_session_id } : null,
    };
  };

  /** Sessions a text names: as a panel participant id, a completion code (case and spaces forgiven) or a session id. */
  const lookup = async (q: string): Promise<LookupMatch[]> => {
    const found = new Map<string, LookupMatch>();
    const add = async (id: string, by: LookupMatch['matched_by']) => {
      if (found.size >= LOOKUP_LIMIT || found.has(id)) return;
      const m = await match(id, by);
      if (m) found.set(id, m);
    };
    for (const p of await store.panelsByParticipant(q)) await add(p.session_id, 'panel_id');
    const codes = new Set([q, normaliseCode(q)]);
    for (const code of codes) for (const c of await store.completionsByCode(code)) await add(c.session_id, 'completion_code');
    if (/^[A-Za-z0-9_-]{1,64}$/.test(q)) await add(q, 'session_id');
    return [...found.values()];
  };

  const funnel = async (ids: ReadonlySet<string> | null): Promise<Funnel> => {
    await live.ready();
    const summaries = live.all().filter((s) => ids === null || ids.has(s.session_id));
    return dropoutFunnel(timeline(), summaries);
  };

  return {
    recruitment,
    lookup,

    mount(router: express.Router): void {
      router.get('/recruitment', async (_req, res) => {
        res.json(await recruitment());
      });

      /** Open or close recruitment, set or clear the target: kept in SQLite (survives restarts), audited. */
      router.post('/recruitment', async (req, res) => {
        const update = parseBody(RecruitmentUpdate, req.body ?? {});
        const now = await recruitment();
        const open = update.open ?? now.open;
        const target = update.target_completed === undefined ? now.target_completed : update.target_completed;
        await store.transaction(async (tx) => {
          await tx.setRecruitment(open, target, clock());
          await tx.audit(clock(), 'recruitment', `open=${open} target=${target ?? 'none'}`);
        });
        res.json(await recruitment());
      });

      router.get('/lookup', async (req, res) => {
        const q = LookupQuery.safeParse(typeof req.query.q === 'string' ? req.query.q : '');
        if (!q.success) throw new HttpError(400, q.error.issues[0]?.message ?? 'bad query');
        const body: LookupResponse = { query: q.data, matches: await lookup(q.data) };
        res.json(body);
      });

      router.get('/funnel', async (req, res) => {
        const flagged = await marks.flagged();
        const ids = req.query.include_flagged === '1' ? null : new Set((await store.sessions()).map((r) => r.id).filter((id) => !flagged.has(id)));
        res.json(await funnel(ids));
      });
    },

    funnelColumns: FUNNEL_COLUMNS as string[],
    async funnelRows(ids: readonly string[]): Promise<Row[]> {
      return (await funnel(new Set(ids))).steps as unknown as Row[];
    },

    codeColumns: CODE_COLUMNS,
    async codeRows(ids: readonly string[]): Promise<Row[]> {
      const wanted = new Set(ids);
      const sessions = new Map((await store.sessions()).map((r) => [r.id, r]));
      const flags = await marks.all();
      return (await store.allCompletions())
        .filter((c) => wanted.has(c.session_id))
        .map((c) => {
          const row = sessions.get(c.session_id);
          return {
            completion_code: c.code,
            session_id: c.session_id,
            link_type: row?.mode ?? null,
            kiosk_label: row?.label ?? null,
            status: row?.status ?? null,
            mark: flags.get(c.session_id)?.flag ?? null,
            completed_at: iso(c.completed_at),
          };
        });
    },

    panelColumns: PANEL_COLUMNS,
    async panelRows(ids: readonly string[]): Promise<Row[]> {
      const wanted = new Set(ids);
      const flags = await marks.all();
      return (await store.panelSessions())
        .filter((p) => wanted.has(p.session_id))
        .map((p) => ({
          provider: p.provider,
          panel_id: p.participant_id,
          panel_study_id: p.study_id,
          panel_session_id: p.panel_session_id,
          session_id: p.session_id,
          status: p.status,
          mark: flags.get(p.session_id)?.flag ?? null,
          completion_code: p.completion_code,
          started_at: iso(p.created_at),
          last_activity_at: iso(p.updated_at),
          completed_at: iso(p.completed_at),
        }));
    },
  };
}
