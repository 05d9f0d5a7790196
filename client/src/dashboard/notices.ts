// What the dashboard says after an action, and on the page of a session that is not there: what happened, in words
// (issue 32). Pure functions of the server's answers, so each sentence is tested on its own (notices.test.ts).
import { z } from 'zod';
import type { RecruitmentState } from '../../../shared/schema/admin.ts';
import type { SessionSummary } from '../../../shared/study/summary.ts';

/** The server's answer to a withdrawal: what it deleted (counted just before) and the sequence it freed. */
export const WithdrawAnswer = z.object({
  withdrawn: z.literal(true),
  session_id: z.string(),
  /** Absent from an older server. */
  deleted: z.object({ records: z.number().int().nonnegative(), marks: z.boolean(), panel_ids: z.boolean() }).optional(),
  sequence_freed: z.object({ id: z.number().int(), round: z.number().int() }).nullable().optional(),
});
export type WithdrawAnswer = z.infer<typeof WithdrawAnswer>;

const AUDIT = 'The audit log keeps only that a withdrawal happened, and when.';

export function withdrawalReport(a: WithdrawAnswer): string {
  const head = `Session ${a.session_id} withdrawn. Deleted for good:`;
  if (!a.deleted) return `${head} its event log, its row in the study database (with any panel ids and marks), and everything derived from them. ${AUDIT}`;
  const n = a.deleted.records;
  const parts = [`its event log (${n} record${n === 1 ? '' : 's'})`, 'its row in the study database'];
  if (a.deleted.panel_ids) parts.push('its panel ids');
  if (a.deleted.marks) parts.push('its marks');
  const seq = a.sequence_freed ? `Sequence ${a.sequence_freed.id} (round ${a.sequence_freed.round}) is back in the pool.` : 'No sequence was leased to it.';
  return `${head} ${parts.join(', ')}, and everything derived from them. ${seq} ${AUDIT}`;
}

export interface SessionPageState {
  /** The live list holds a summary of the session. */
  hasSummary: boolean;
  /** The session's stream said it was removed (withdrawn while the page was open). */
  gone: boolean;
  /** The server answered that it has no such session (404). */
  missing: boolean;
  /** The live list has arrived (so a session absent from it is not on the server). */
  snapshot: boolean;
}

export interface SessionPageNotice {
  kind: 'loading' | 'withdrawn' | 'unknown';
  text: string;
}

/** What the page of session `id` says instead of the session, or null to show the session. */
export function sessionNotice(id: string, s: SessionPageState): SessionPageNotice | null {
  if (s.gone) return { kind: 'withdrawn', text: `Session ${id} was withdrawn: its log, its row and everything derived from them are deleted; nothing of it remains.` };
  if (s.hasSummary) return null;
  if (s.missing || s.snapshot)
    return {
      kind: 'unknown',
      text: `There is no session ${id} on this server: it was withdrawn (a withdrawal keeps nothing of a session, not even its id), or no session ever had this id. Check the id, or look it up on Find.`,
    };
  return { kind: 'loading', text: `Loading session ${id}…` };
}

const target = (n: number) => `${n} completed participant${n === 1 ? '' : 's'}`;

/** What a recruitment update changed, from the state before and the server's state after. */
export function recruitmentChange(before: RecruitmentState, after: RecruitmentState): string {
  const said: string[] = [];
  if (before.open !== after.open) {
    if (!after.open) said.push('Recruitment closed: new visitors see the closed page; participants who already started can still finish.');
    else if (after.accepting) said.push('Recruitment opened: new participants can start now.');
    else if (after.reason === 'target_reached' && after.target_completed !== null)
      said.push(`Recruitment opened, but the target of ${target(after.target_completed)} is reached: new visitors still see the closed page.`);
    else said.push('Recruitment opened, but new visitors still see the closed page.');
  }
  if (before.target_completed !== after.target_completed) {
    if (after.target_completed === null) said.push(`Target removed (was ${target(before.target_completed!)}).`);
    else said.push(`Target set to ${target(after.target_completed)} (was ${before.target_completed === null ? 'none' : before.target_completed}); ${after.completed} completed so far.`);
    if (after.target_completed !== null && before.accepting && !after.accepting && after.reason === 'target_reached') said.push('It is reached: new visitors now see the closed page.');
  }
  if (said.length > 0) return said.join(' ');
  return after.target_completed === null && before.open === after.open
    ? `Nothing changed: recruitment was already ${after.open ? 'open' : 'closed'}${after.target_completed === null ? ', with no target' : ''}.`
    : `Nothing changed: the target was already ${target(after.target_completed!)}.`;
}

/** Moves · hints · wrong submissions of a session: the study puzzles', and the practice apart. */
export function countsLine(s: Pick<SessionSummary, 'moves' | 'hints' | 'wrong_submissions' | 'practice'>): string {
  const study = `${s.moves} · ${s.hints} · ${s.wrong_submissions} on study puzzles`;
  const p = s.practice;
  if (!p || p.moves + p.hints + p.wrong_submissions === 0) return study;
  return `${study}; practice (tutorial, warm-up): ${p.moves} · ${p.hints} · ${p.wrong_submissions}, not counted`;
}
