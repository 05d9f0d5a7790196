// What the dashboard tells the experimenter after an action, and on the page of a session that is not there (issue 32).
import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { RecruitmentState } from '../../../shared/schema/admin.ts';
import { WithdrawAnswer, countsLine, recruitmentChange, sessionNotice, withdrawalReport } from './notices.ts';
import { SessionNotice } from './SessionNotice.tsx';
import { emptySummary } from '../../../shared/study/summary.ts';

describe('the page of a session that is not (or no longer) there', () => {
  it('says it is loading only while nothing is known yet', () => {
    expect(sessionNotice('s1', { hasSummary: false, gone: false, missing: false, snapshot: false })).toMatchObject({ kind: 'loading' });
    expect(sessionNotice('s1', { hasSummary: true, gone: false, missing: false, snapshot: true })).toBeNull();
  });

  it('a session withdrawn while the page is open: says so, and what went', () => {
    const n = sessionNotice('s1', { hasSummary: true, gone: true, missing: false, snapshot: true })!;
    expect(n.kind).toBe('withdrawn');
    expect(n.text).toContain('Session s1 was withdrawn');
  });

  it('an unknown id (or one withdrawn before): the server has no such session, said as such, not "Loading" forever', () => {
    // The session's own stream answered 404, or the live list (loaded) does not hold it.
    for (const state of [
      { hasSummary: false, gone: false, missing: true, snapshot: false },
      { hasSummary: false, gone: false, missing: false, snapshot: true },
    ]) {
      const n = sessionNotice('nope', state)!;
      expect(n.kind).toBe('unknown');
      expect(n.text).toBe(
        'There is no session nope on this server: it was withdrawn (a withdrawal keeps nothing of a session, not even its id), or no session ever had this id. Check the id, or look it up on Find.',
      );
      expect(n.text).not.toContain('Loading');
    }
  });

  it('renders the notice with a way back, and a report of the withdrawal when there is one', () => {
    const html = renderToStaticMarkup(createElement(SessionNotice, { notice: sessionNotice('nope', { hasSummary: false, gone: false, missing: true, snapshot: true })!, report: null }));
    expect(html).toContain('data-testid="session-unknown"');
    expect(html).toContain('There is no session nope on this server');
    expect(html).toContain('href="#/"');
    const report = withdrawalReport({ withdrawn: true, session_id: 's1', deleted: { records: 42, marks: true, panel_ids: true }, sequence_freed: { id: 7, round: 2 } });
    const gone = renderToStaticMarkup(createElement(SessionNotice, { notice: sessionNotice('s1', { hasSummary: true, gone: true, missing: false, snapshot: true })!, report }));
    expect(gone).toContain('data-testid="session-gone"');
    expect(gone).toContain('data-testid="withdrawal-report"');
    expect(gone).toContain('its event log (42 records)');
  });
});

describe('the confirmation of a withdrawal', () => {
  it('names what was deleted, from the server\'s answer', () => {
    const answer = WithdrawAnswer.parse({ withdrawn: true, session_id: 's1', deleted: { records: 42, marks: true, panel_ids: true }, sequence_freed: { id: 7, round: 2 } });
    expect(withdrawalReport(answer)).toBe(
      'Session s1 withdrawn. Deleted for good: its event log (42 records), its row in the study database, its panel ids, its marks, and everything derived from them. Sequence 7 (round 2) is back in the pool. The audit log keeps only that a withdrawal happened, and when.',
    );
  });

  it('one record, no marks or panel ids, no sequence to free', () => {
    expect(withdrawalReport({ withdrawn: true, session_id: 's2', deleted: { records: 1, marks: false, panel_ids: false }, sequence_freed: null })).toBe(
      'Session s2 withdrawn. Deleted for good: its event log (1 record), its row in the study database, and everything derived from them. No sequence was leased to it. The audit log keeps only that a withdrawal happened, and when.',
    );
  });

  it('an older server that answers only { withdrawn: true }: still a confirmation, without counts', () => {
    expect(withdrawalReport(WithdrawAnswer.parse({ withdrawn: true, session_id: 's3' }))).toBe(
      'Session s3 withdrawn. Deleted for good: its event log, its row in the study database (with any panel ids and marks), and everything derived from them. The audit log keeps only that a withdrawal happened, and when.',
    );
  });
});

describe('what a change of recruitment did', () => {
  const state = (over: Partial<RecruitmentState>): RecruitmentState => ({
    open: true,
    target_completed: null,
    completed: 3,
    target_reached: false,
    accepting: true,
    reason: 'open',
    closed_title: 't',
    closed_message: 'm',
    set_by: 'dashboard',
    updated_at: 1,
    ...over,
  });

  it('opening and closing', () => {
    expect(recruitmentChange(state({ open: false, accepting: false, reason: 'closed' }), state({}))).toBe('Recruitment opened: new participants can start now.');
    expect(recruitmentChange(state({}), state({ open: false, accepting: false, reason: 'closed' }))).toBe(
      'Recruitment closed: new visitors see the closed page; participants who already started can still finish.',
    );
  });

  it('opened, but the target is reached: still not accepting, and it says why', () => {
    expect(recruitmentChange(state({ open: false, accepting: false, reason: 'closed', target_completed: 3, target_reached: true }), state({ target_completed: 3, target_reached: true, accepting: false, reason: 'target_reached' }))).toBe(
      'Recruitment opened, but the target of 3 completed participants is reached: new visitors still see the closed page.',
    );
  });

  it('the target: set, changed, removed, unchanged', () => {
    expect(recruitmentChange(state({}), state({ target_completed: 40 }))).toBe('Target set to 40 completed participants (was none); 3 completed so far.');
    expect(recruitmentChange(state({ target_completed: 40 }), state({ target_completed: 50 }))).toBe('Target set to 50 completed participants (was 40); 3 completed so far.');
    expect(recruitmentChange(state({ target_completed: 40 }), state({ target_completed: null }))).toBe('Target removed (was 40 completed participants).');
    expect(recruitmentChange(state({ target_completed: 40 }), state({ target_completed: 40 }))).toBe('Nothing changed: the target was already 40 completed participants.');
  });
});

describe('counts on the session page', () => {
  it('study puzzles and practice apart', () => {
    const s = { ...emptySummary({ session_id: 's', mode: 'general', label: null, status: 'active', created_at: 0, sequence: [], total_steps: 3 }), moves: 12, hints: 2, wrong_submissions: 1, practice: { moves: 5, hints: 1, wrong_submissions: 1 } };
    expect(countsLine(s)).toBe('12 · 2 · 1 on study puzzles; practice (tutorial, warm-up): 5 · 1 · 1, not counted');
    expect(countsLine({ ...s, practice: { moves: 0, hints: 0, wrong_submissions: 0 } })).toBe('12 · 2 · 1 on study puzzles');
  });
});
