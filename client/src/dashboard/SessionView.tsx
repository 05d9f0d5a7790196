// One session: its summary, the live mirror of its board, its attempts (to replay), its answers, and the actions on it.
import { useEffect, useMemo, useReducer, useState } from 'react';
import { connectionState, timeInStep, type SessionFlag } from '../../../shared/study/summary.ts';
import type { LookupMatch } from '../../../shared/schema/admin.ts';
import { RecordsPush, adminApi, sessionLiveUrl } from './adminApi.ts';
import { formatDuration, useLive, useServerNow } from './liveStore.ts';
import { stepLabel } from './LiveTable.tsx';
import { MiniBoard } from './MiniBoard.tsx';
import { SudokuMini } from '../ui/SudokuMini.tsx';
import { isNonogramPuzzle, isSudokuPuzzle, type SudokuStudyPuzzle } from '../../../shared/schema/config.ts';
import { replaySudoku, wrongSudokuCells, type SudokuState } from '../../../shared/sudoku/board.ts';
import { showsBoard } from '../../../shared/study/phases/index.ts';
import { answersOf, attemptsOf, emptyMirror, mirrorRecords, readRecords, wrongCells, type LogRecord, type Mirror, type PuzzleShape } from './records.ts';
import { WithdrawAnswer, countsLine, sessionNotice, withdrawalReport } from './notices.ts';
import { SessionNotice } from './SessionNotice.tsx';

interface Feed {
  records: LogRecord[];
  mirror: Mirror;
  gone: boolean;
  /** The server has no such session (its stream was refused). */
  missing: boolean;
}

type FeedAction = { type: 'records'; records: LogRecord[]; initial: boolean; puzzleOf: (id: string) => PuzzleShape | undefined } | { type: 'gone' } | { type: 'missing' };

function feedReducer(state: Feed, action: FeedAction): Feed {
  if (action.type === 'gone') return { ...state, gone: true };
  if (action.type === 'missing') return { ...state, missing: true };
  const records = action.initial ? action.records : [...state.records, ...action.records];
  const mirror = mirrorRecords(action.initial ? emptyMirror : state.mirror, action.records, action.puzzleOf);
  return { records, mirror, gone: false, missing: false };
}

/** The session's completion code and panel ids (kept out of its log): looked up again when its status changes. */
function useIdentifiers(id: string, status: string | undefined): LookupMatch | null {
  const [found, setFound] = useState<LookupMatch | null>(null);
  useEffect(() => {
    adminApi.lookup(id).then(
      (r) => setFound(r.matches.find((m) => m.session_id === id) ?? null),
      () => setFound(null),
    );
  }, [id, status]);
  return found;
}

export function usePuzzles(): (id: string) => PuzzleShape | undefined {
  const overview = useLive((s) => s.overview);
  return useMemo(() => {
    const all = overview ? [...overview.config.puzzles, ...overview.config.practice_puzzles].filter(isNonogramPuzzle) : [];
    const byId = new Map(all.map((p) => [p.id, p as PuzzleShape]));
    return (id: string) => byId.get(id);
  }, [overview]);
}

/** The study's Sudoku puzzles, by id (the Nonogram ones: usePuzzles). */
export function useSudokuPuzzles(): (id: string) => SudokuStudyPuzzle | undefined {
  const overview = useLive((s) => s.overview);
  return useMemo(() => {
    const all = overview ? [...overview.config.puzzles, ...overview.config.practice_puzzles].filter(isSudokuPuzzle) : [];
    const byId = new Map(all.map((p) => [p.id, p]));
    return (id: string) => byId.get(id);
  }, [overview]);
}

/**
 * The live Sudoku board: the moves of the step the participant is on, folded by shared/sudoku/board.ts (the page's own
 * rule), when that step shows a Sudoku; null otherwise.
 */
export function sudokuMirror(records: readonly LogRecord[], sudokuOf: (id: string) => SudokuStudyPuzzle | undefined): { puzzle: SudokuStudyPuzzle; step: number; state: SudokuState; moves: number } | null {
  const client = records.filter((r) => r.origin === 'client');
  const start = client.filter((r) => r.type === 'step_start').at(-1);
  if (!start || start.type !== 'step_start' || !start.puzzle_id || !showsBoard(start.payload.kind)) return null;
  const puzzle = sudokuOf(start.puzzle_id);
  if (!puzzle) return null;
  const moves = client.flatMap((r) => (r.type === 'move' && r.step === start.step ? [r.payload.move] : []));
  return { puzzle, step: start.step, state: replaySudoku(puzzle.givens, moves), moves: moves.length };
}

/** The records of a session, live: everything so far, then each batch the server makes durable. */
function useSessionFeed(id: string, puzzleOf: (id: string) => PuzzleShape | undefined): Feed {
  const [feed, dispatch] = useReducer(feedReducer, { records: [], mirror: emptyMirror, gone: false, missing: false });
  useEffect(() => {
    const source = new EventSource(sessionLiveUrl(id));
    source.addEventListener('records', (e) => {
      const data = RecordsPush.safeParse(JSON.parse((e as MessageEvent<string>).data));
      if (data.success) dispatch({ type: 'records', records: readRecords(data.data.records), initial: Boolean(data.data.initial), puzzleOf });
    });
    source.addEventListener('removed', () => {
      dispatch({ type: 'gone' });
      source.close();
    });
    // A refused stream (404: no such session) is closed for good; a dropped one reconnects by itself.
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) dispatch({ type: 'missing' });
    });
    return () => source.close();
  }, [id, puzzleOf]);
  return feed;
}

/** The actions on one session (mark, extend, end, withdraw); also on the Find page. `onDone` runs after each that succeeds. */
export function Actions({ id, flag, status, onWithdrawn, onDone }: { id: string; flag: SessionFlag | null; status: string; onWithdrawn: (report: string) => void; onDone?: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [minutes, setMinutes] = useState(15);
  const run = async (what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
      if (what !== 'withdraw') setMessage(`${what}: done`);
      onDone?.();
    } catch (err) {
      setMessage(`${what} failed: ${(err as Error).message}`);
    }
  };
  return (
    <section className="panel actions">
      <h3>Actions</h3>
      <div className="row">
        <label>
          Mark as{' '}
          <select value={flag ?? ''} data-testid="flag-select" onChange={(e) => run('mark', () => adminApi.flag(id, (e.target.value || null) as SessionFlag | null))}>
            <option value="">study data (no mark)</option>
            <option value="pilot">pilot</option>
            <option value="test">test</option>
            <option value="excluded">excluded</option>
          </select>
        </label>
        <span className="hint">Marked sessions are kept but left out of the pool balance and, by default, of exports.</span>
      </div>
      <div className="row" data-testid="session-downloads">
        Download this session:{' '}
        {[
          ['events', 'events (CSV)'],
          ['trajectories', 'trajectory (CSV)'],
          ['attempts', 'attempts (CSV)'],
          ['raw', 'raw log (zip)'],
        ].map(([name, label]) => (
          <a key={name} href={`/api/admin/exports/${name}?session=${encodeURIComponent(id)}`} download data-testid={`session-export-${name}`}>
            {label}
          </a>
        ))}
      </div>
      {(status === 'active' || status === 'abandoned') && (
        <div className="row">
          <label>
            Extend by{' '}
            <input type="number" min={1} max={1440} value={minutes} onChange={(e) => setMinutes(Number(e.target.value))} style={{ width: '5em' }} /> min
          </label>
          <button onClick={() => run('extend', () => adminApi.extend(id, minutes))} data-testid="extend">
            Extend
          </button>
          {status === 'active' && (
            <button onClick={() => run('end', () => adminApi.end(id))} data-testid="end">
              End as abandoned
            </button>
          )}
        </div>
      )}
      <div className="row">
        {!confirming ? (
          <button className="danger" onClick={() => setConfirming(true)} data-testid="withdraw">
            Withdraw session…
          </button>
        ) : (
          <div className="confirm" role="alertdialog" aria-label="confirm withdrawal" data-testid="withdraw-confirm">
            <p>
              Withdraw session <b className="mono">{id}</b>? This deletes, for good: its event log (the file <span className="mono">sessions/{id}.ndjson</span> on the
              embedded store, its rows of <span className="mono">events</span> on PostgreSQL), its row in the study database (with any panel ids and marks), and everything derived from it. Its sequence returns to the pool. Only the
              fact that a withdrawal happened, and when, is kept in the audit log.
            </p>
            <button
              className="danger"
              data-testid="withdraw-yes"
              onClick={() =>
                run('withdraw', async () => {
                  const answer = WithdrawAnswer.safeParse(await adminApi.withdraw(id));
                  const report = answer.success ? withdrawalReport(answer.data) : withdrawalReport({ withdrawn: true, session_id: id });
                  setMessage(report);
                  onWithdrawn(report);
                })
              }
            >
              Delete everything of this session
            </button>
            <button onClick={() => setConfirming(false)}>Cancel</button>
          </div>
        )}
      </div>
      {message && (
        <p className="message" data-testid="action-message">
          {message}
        </p>
      )}
    </section>
  );
}

export function SessionView({ id, go }: { id: string; go: (hash: string) => void }) {
  const summary = useLive((s) => s.sessions[id]);
  const liveness = useLive((s) => s.liveness);
  const now = useServerNow();
  const puzzleOf = usePuzzles();
  const sudokuOf = useSudokuPuzzles();
  const feed = useSessionFeed(id, puzzleOf);
  const attempts = useMemo(() => attemptsOf(feed.records), [feed.records]);
  const answers = useMemo(() => answersOf(feed.records), [feed.records]);
  const ids = useIdentifiers(id, summary?.status);
  const snapshot = useLive((s) => s.connected);
  const [report, setReport] = useState<string | null>(null);

  const notice = sessionNotice(id, { hasSummary: Boolean(summary), gone: feed.gone || report !== null, missing: feed.missing, snapshot });
  if (notice || !summary) return <SessionNotice notice={notice ?? { kind: 'loading', text: `Loading session ${id}…` }} report={report} />;

  const state = connectionState(summary, now, liveness);
  const current = summary.steps.at(-1);
  const mirrorPuzzle = feed.mirror.puzzle_id ? puzzleOf(feed.mirror.puzzle_id) : undefined;
  const sudokuLive = sudokuMirror(feed.records, sudokuOf);
  const wrong = feed.mirror.board && mirrorPuzzle ? wrongCells(feed.mirror.board, mirrorPuzzle.solution) : undefined;

  return (
    <div className="session-view" data-testid="session-view">
      <p>
        <a href="#/">← live sessions</a>
      </p>
      <h2>
        Session <span className="mono">{id}</span> <span className={`badge state-${state}`} data-testid="session-state">{state}</span>
        {summary.flag && <span className={`flag flag-${summary.flag}`}>{summary.flag}</span>}
      </h2>
      <dl className="facts">
        <dt>Mode</dt>
        <dd>
          {summary.mode}
          {summary.label ? ` · ${summary.label}` : ''}
        </dd>
        <dt>Language</dt>
        <dd data-testid="session-language">{summary.lang ?? 'en'}</dd>
        <dt>Status</dt>
        <dd>{summary.status}</dd>
        <dt>Completion code</dt>
        <dd className="mono" data-testid="session-code">
          {ids?.completion_code ?? '—'}
        </dd>
        {ids?.panel && (
          <>
            <dt>Panel id</dt>
            <dd data-testid="session-panel">
              {ids.panel.provider} <span className="mono">{ids.panel.participant_id}</span>
            </dd>
          </>
        )}
        <dt>Sequence</dt>
        <dd className="mono">{summary.sequence.join(' → ')}</dd>
        <dt>Now</dt>
        <dd>
          {stepLabel(summary)}
          {summary.puzzle_id ? ` · ${summary.puzzle_id}${summary.position ? ` @${summary.position}` : ''}` : ''}
          {state !== 'finished' ? ` · ${formatDuration(timeInStep(summary, now))} in this step` : ''}
        </dd>
        <dt>Moves · hints · wrong submissions</dt>
        <dd>
          <span data-testid="session-counts">{countsLine(summary)}</span>
          {current && current.kind === 'puzzle' && current.ended_at === null && (
            <span data-testid="current-step-counts">
              {' '}
              ({current.moves} · {current.hints} · {current.wrong_submissions} on this puzzle)
            </span>
          )}
        </dd>
        <dt>Last activity</dt>
        <dd>{formatDuration(Math.max(0, now - summary.last_activity))} ago</dd>
      </dl>

      <div className="columns">
        <section className="panel">
          <h3>Live board</h3>
          {sudokuLive ? (
            <>
              <p className="muted">
                <span className="mono">{sudokuLive.puzzle.id}</span> · step {sudokuLive.step} · {sudokuLive.moves} moves · <span className="wrong-key">■</span> wrong against the solution
              </p>
              <SudokuMini
                size={sudokuLive.puzzle.size}
                box={sudokuLive.puzzle.box}
                digits={sudokuLive.state.cells.digits}
                given={sudokuLive.state.given}
                marks={sudokuLive.state.cells.marks}
                wrong={new Set(wrongSudokuCells(sudokuLive.state, sudokuLive.puzzle.solution))}
                cell={28}
                testId="mirror"
              />
            </>
          ) : feed.mirror.board && mirrorPuzzle ? (
            <>
              <p className="muted">
                <span className="mono">{mirrorPuzzle.id}</span> · step {feed.mirror.step} · {feed.mirror.moves} moves · <span className="wrong-key">■</span> wrong against the
                solution
              </p>
              <MiniBoard
                width={mirrorPuzzle.width}
                height={mirrorPuzzle.height}
                cells={feed.mirror.board.grid.cells}
                rows={mirrorPuzzle.rows}
                cols={mirrorPuzzle.cols}
                wrong={wrong}
                testId="mirror"
              />
            </>
          ) : (
            <p className="muted" data-testid="mirror-none">
              No board on screen right now ({stepLabel(summary)}).
            </p>
          )}
        </section>
        <Actions id={id} flag={summary.flag} status={summary.status} onWithdrawn={setReport} />
      </div>

      <section className="panel">
        <h3>Attempts</h3>
        {attempts.length === 0 ? (
          <p className="muted">No puzzle attempted yet.</p>
        ) : (
          <table className="plain">
            <thead>
              <tr>
                <th>Step</th>
                <th>Kind</th>
                <th>Puzzle</th>
                <th>Position</th>
                <th>Outcome</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {attempts.map((a) => (
                <tr key={a.step}>
                  <td>{a.step}</td>
                  <td>{a.kind}</td>
                  <td className="mono">{a.puzzle_id}</td>
                  <td>{a.position ?? '—'}</td>
                  <td>{a.outcome ?? 'in progress'}</td>
                  <td>
                    <a href={`#/session/${id}/replay/${a.step}`} data-testid={`replay-${a.step}`}>
                      Replay
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="panel">
        <h3>Answers</h3>
        {answers.length === 0 ? (
          <p className="muted">No answers yet.</p>
        ) : (
          <table className="plain answers" data-testid="answers">
            <thead>
              <tr>
                <th>Where</th>
                <th>Item</th>
                <th>Answer</th>
              </tr>
            </thead>
            <tbody>
              {answers.map((a, i) => (
                <tr key={i}>
                  <td>{a.source}</td>
                  <td className="mono">{a.item}</td>
                  {/* Participant text: rendered as a text node, never as HTML. */}
                  <td className="answer-text" data-testid={`answer-${a.item}`}>
                    {a.value}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
