// The live sessions table: one row per session, pushed by the server; sortable, filterable; idle sessions stand out.
import { useEffect, useMemo, useState } from 'react';
import { completion, connectionState, timeInStep, type ConnectionState, type Liveness, type SessionSummary } from '../../../shared/study/summary.ts';
import { formatDuration, useLive, useServerNow } from './liveStore.ts';

type SortKey = 'created' | 'state' | 'phase' | 'time' | 'moves' | 'hints' | 'wrong' | 'activity' | 'completion';

/** Rows drawn at first: a large study stays responsive (the table re-renders every second). */
const ROW_LIMIT = 200;

const STATE_ORDER: Record<ConnectionState, number> = { idle: 0, disconnected: 1, active: 2, abandoned: 3, finished: 4 };

interface Row {
  s: SessionSummary;
  state: ConnectionState;
  time: number;
  silence: number;
  done: number;
}

export function stepLabel(s: SessionSummary): string {
  if (s.status === 'complete') return 'complete';
  if (s.status === 'declined') return 'declined';
  if (s.status === 'screened_out') return 'screened out';
  return s.step_kind ? `${s.phase ?? ''} · ${s.step_kind}` : `between steps (step ${s.step})`;
}

/** What the filter box says it filters by (the box is sized to show all of it). */
export const FILTER_PLACEHOLDER = 'filter by id, label, puzzle';

/** Moves, hints and wrong submissions count the study puzzles only (what the headers' titles say). */
const STUDY_ONLY = 'on study puzzles; the tutorial and warm-up (practice) are not counted';

export function LiveTable({ open }: { open: (id: string) => void }) {
  const sessions = useLive((st) => st.sessions);
  const liveness = useLive((st) => st.liveness);
  const connected = useLive((st) => st.connected);
  const now = useServerNow();
  return <LiveTableView sessions={sessions} liveness={liveness} connected={connected} now={now} open={open} />;
}

/** The table itself, from the live state it is given. */
export function LiveTableView({
  sessions,
  liveness,
  connected,
  now,
  open,
}: {
  sessions: Record<string, SessionSummary>;
  liveness: Liveness;
  connected: boolean;
  now: number;
  open: (id: string) => void;
}) {
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: 'created', desc: true });
  const [text, setText] = useState('');
  const [stateFilter, setStateFilter] = useState<'all' | 'unfinished' | ConnectionState>('all');
  const [hideFlagged, setHideFlagged] = useState(false);
  const [limit, setLimit] = useState(ROW_LIMIT);

  const rows: Row[] = useMemo(() => {
    const needle = text.trim().toLowerCase();
    const out = Object.values(sessions)
      .map((s) => ({ s, state: connectionState(s, now, liveness), time: timeInStep(s, now), silence: now - s.last_activity, done: completion(s) }))
      .filter((r) => !needle || r.s.session_id.toLowerCase().includes(needle) || (r.s.label ?? '').toLowerCase().includes(needle) || (r.s.puzzle_id ?? '').includes(needle))
      .filter((r) => stateFilter === 'all' || (stateFilter === 'unfinished' ? r.state !== 'finished' : r.state === stateFilter))
      .filter((r) => !hideFlagged || r.s.flag === null);
    const value = (r: Row): number | string => {
      switch (sort.key) {
        case 'created':
          return r.s.created_at;
        case 'state':
          return STATE_ORDER[r.state];
        case 'phase':
          return r.s.step;
        case 'time':
          return r.time;
        case 'moves':
          return r.s.moves;
        case 'hints':
          return r.s.hints;
        case 'wrong':
          return r.s.wrong_submissions;
        case 'activity':
          return r.s.last_activity;
        case 'completion':
          return r.done;
      }
    };
    return out.sort((a, b) => {
      const x = value(a);
      const y = value(b);
      const d = x < y ? -1 : x > y ? 1 : a.s.created_at - b.s.created_at;
      return sort.desc ? -d : d;
    });
  }, [sessions, now, liveness, text, stateFilter, hideFlagged, sort]);

  const counts = useMemo(() => {
    const c: Record<string, number> = {};
    for (const s of Object.values(sessions)) {
      const st = connectionState(s, now, liveness);
      c[st] = (c[st] ?? 0) + 1;
    }
    return c;
  }, [sessions, now, liveness]);

  // An idle or disconnected participant shows in the tab title too, for an experimenter looking elsewhere.
  const waiting = (counts.idle ?? 0) + (counts.disconnected ?? 0);
  useEffect(() => {
    document.title = waiting > 0 ? `(${waiting} need attention) nonolab dashboard` : 'nonolab dashboard';
  }, [waiting]);

  const header = (key: SortKey, label: string, title?: string) => (
    <th title={title}>
      <button className="sort" onClick={() => setSort((s) => ({ key, desc: s.key === key ? !s.desc : key !== 'state' }))} aria-sort={sort.key === key ? (sort.desc ? 'descending' : 'ascending') : 'none'}>
        {label}
        {sort.key === key ? (sort.desc ? ' ▾' : ' ▴') : ''}
      </button>
    </th>
  );

  return (
    <section>
      <div className="toolbar">
        <span className={`conn ${connected ? 'on' : 'off'}`} data-testid="live-connection">
          {connected ? '● live' : '○ reconnecting…'}
        </span>
        {(['active', 'idle', 'disconnected', 'abandoned', 'finished'] as const).map((k) => (
          <span key={k} className={`badge state-${k}`} data-testid={`count-${k}`}>
            {k} {counts[k] ?? 0}
          </span>
        ))}
        <span className="spacer" />
        <input
          type="search"
          placeholder={FILTER_PLACEHOLDER}
          size={FILTER_PLACEHOLDER.length + 2}
          style={{ minWidth: `${FILTER_PLACEHOLDER.length + 2}ch` }}
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-label="filter sessions"
        />
        <select value={stateFilter} onChange={(e) => setStateFilter(e.target.value as typeof stateFilter)} aria-label="filter by state">
          <option value="all">all states</option>
          <option value="unfinished">unfinished</option>
          <option value="active">active</option>
          <option value="idle">idle</option>
          <option value="disconnected">disconnected</option>
          <option value="abandoned">abandoned</option>
          <option value="finished">finished</option>
        </select>
        <label className="check">
          <input type="checkbox" checked={hideFlagged} onChange={(e) => setHideFlagged(e.target.checked)} /> hide pilot/test/excluded
        </label>
      </div>
      <table className="sessions" data-testid="sessions-table">
        <thead>
          <tr>
            {header('created', 'Session')}
            {header('state', 'State')}
            {header('phase', 'Phase')}
            <th>Puzzle</th>
            {header('time', 'In phase')}
            {header('moves', 'Moves', `Board moves ${STUDY_ONLY}`)}
            {header('hints', 'Hints', `Hints shown ${STUDY_ONLY}`)}
            {header('wrong', 'Wrong', `Wrong submissions ${STUDY_ONLY}`)}
            {header('activity', 'Last activity')}
            {header('completion', 'Progress')}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={10} className="empty">
                No sessions{Object.keys(sessions).length ? ' match the filter' : ' yet'}.
              </td>
            </tr>
          )}
          {rows.slice(0, limit).map(({ s, state, time, silence, done }) => (
            <tr key={s.session_id} className={`state-${state}`} data-testid={`session-row-${s.session_id}`} data-state={state} onClick={() => open(s.session_id)}>
              <td>
                <a href={`#/session/${s.session_id}`} onClick={(e) => e.stopPropagation()} className="mono">
                  {s.session_id}
                </a>
                <div className="sub">
                  {s.mode}
                  {s.label ? ` · ${s.label}` : ''}
                  {s.lang ? <span className="lang" data-testid={`lang-${s.session_id}`}>{` · ${s.lang}`}</span> : null}
                  {s.flag && <span className={`flag flag-${s.flag}`}>{s.flag}</span>}
                </div>
              </td>
              <td>
                <span className={`badge state-${state}`}>{state}</span>
                {!s.visible && state !== 'finished' && <div className="sub">page hidden</div>}
              </td>
              <td data-testid={`phase-${s.session_id}`}>{stepLabel(s)}</td>
              <td className="mono" data-testid={`puzzle-${s.session_id}`}>
                {s.puzzle_id ? `${s.puzzle_id}${s.position ? ` @${s.position}` : ''}` : '—'}
              </td>
              <td>{state === 'finished' ? '—' : formatDuration(time)}</td>
              <td data-testid={`moves-${s.session_id}`}>{s.moves}</td>
              <td data-testid={`hints-${s.session_id}`}>{s.hints}</td>
              <td data-testid={`wrong-${s.session_id}`}>{s.wrong_submissions}</td>
              <td>{formatDuration(Math.max(0, silence))} ago</td>
              <td>
                <div className="progress" title={`${Math.round(done * 100)}%`}>
                  <div style={{ width: `${Math.round(done * 100)}%` }} />
                </div>
                <div className="sub">
                  {s.solved} solved · {s.skipped} skipped
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > limit && (
        <p>
          <button onClick={() => setLimit(rows.length)} data-testid="show-all">
            Show all {rows.length} sessions
          </button>{' '}
          <span className="muted">(showing {limit}; sort or filter to bring others to the top)</span>
        </p>
      )}
    </section>
  );
}
