// Study overview: the config in force and its hash, the puzzle set with pictures and metrics, sessions by state.
import { useEffect } from 'react';
import { isNonogramPuzzle, type StudyPuzzle, type SudokuStudyPuzzle } from '../../../shared/schema/config.ts';
import { initialSudoku } from '../../../shared/sudoku/board.ts';
import { SudokuMini } from '../ui/SudokuMini.tsx';
import { loadOverview, useLive } from './liveStore.ts';
import { MiniBoard } from './MiniBoard.tsx';

function metricRows(p: StudyPuzzle): [string, string][] {
  const out: [string, string][] = [];
  const m = p.metrics;
  if (!m) return out;
  for (const [group, values] of Object.entries(m)) {
    if (!values || typeof values !== 'object') continue;
    const v = values as Record<string, unknown>;
    const human = isNonogramPuzzle(p) ? ['level', 'line_passes', 'footholds', 'foothold_cells', 'probes', 'search_nodes'] : ['level', 'hardest', 'propagation_level', 'steps', 'clues'];
    const keys = group === 'human' ? human : ['decisions', 'propagations', 'conflicts', 'restarts'];
    for (const k of keys) if (typeof v[k] === 'number' || typeof v[k] === 'string') out.push([`${group}.${k}`, String(v[k])]);
  }
  return out;
}

/** A Sudoku's solution, its givens bold (as the participant's board shows them). */
function SudokuPicture({ p }: { p: SudokuStudyPuzzle }) {
  const givens = initialSudoku(p.givens);
  const solution = initialSudoku(p.solution);
  return <SudokuMini size={p.size} box={p.box} digits={solution.cells.digits} given={givens.given} cell={Math.max(8, Math.floor(120 / p.size))} label={`${p.id}: the solution, givens bold`} testId={`puzzle-picture-${p.id}`} />;
}

function PuzzleCard({ p }: { p: StudyPuzzle }) {
  return (
    <div className="puzzle-card" data-testid={`puzzle-card-${p.id}`}>
      {isNonogramPuzzle(p) ? (
        <MiniBoard width={p.width} height={p.height} solution={p.solution} cell={Math.max(6, Math.floor(120 / Math.max(p.width, p.height)))} />
      ) : (
        <SudokuPicture p={p} />
      )}
      <div>
        <div className="mono">{p.id}</div>
        <div className="sub">{isNonogramPuzzle(p) ? `${p.width}×${p.height}` : `${p.size}×${p.size} Sudoku`}</div>
        <table className="metrics">
          <tbody>
            {metricRows(p).map(([k, v]) => (
              <tr key={k}>
                <td>{k}</td>
                <td>{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export function OverviewView() {
  const overview = useLive((s) => s.overview);
  useEffect(() => {
    void loadOverview();
  }, []);
  if (!overview) return <p className="muted">Loading the study…</p>;
  const { study, config, counts } = overview;
  return (
    <div data-testid="overview">
      <h2>{study.title}</h2>
      <dl className="facts">
        <dt>Study id</dt>
        <dd className="mono">{study.id}</dd>
        <dt>Config version</dt>
        <dd>{study.version}</dd>
        <dt>Config hash</dt>
        <dd className="mono" data-testid="config-hash">
          {study.config_hash}
        </dd>
        <dt>App version</dt>
        <dd>{study.app_version ?? '—'}</dd>
        <dt>Hints</dt>
        <dd>{config.hints.policy}</dd>
        <dt>When the pool is used up</dt>
        <dd>{config.assignment.when_exhausted}</dd>
        <dt>Inactivity timeout</dt>
        <dd>{config.timing.inactivity_minutes} min</dd>
        <dt>Completion codes</dt>
        <dd data-testid="code-mode">
          {config.completion.code_mode === 'per_participant' ? `one per participant${config.completion.code_prefix ? ` (${config.completion.code_prefix}-…)` : ''}` : 'one for the study'}
          {config.completion.redirect_url ? ` · redirect to ${config.completion.redirect_url}` : ''}
        </dd>
        <dt>Recruitment (config)</dt>
        <dd>
          {config.recruitment.open ? 'open' : 'closed'}
          {config.recruitment.target_completed ? `, target ${config.recruitment.target_completed} completed` : ''} · <a href="#/recruitment">now</a>
        </dd>
      </dl>
      {overview.log_repairs.length > 0 && (
        <div className="warning" role="alert" data-testid="log-repairs">
          <h3>Damaged session logs</h3>
          <p>
            At start-up these logs had lines that do not parse. Every valid record was kept; the original file was copied
            aside, untouched. Check it before analysing these sessions.
          </p>
          <ul>
            {overview.log_repairs.map((r) => (
              <li key={`${r.session_id}-${r.at}`} data-testid={`log-repair-${r.session_id}`}>
                <a href={`#/session/${r.session_id}`} className="mono">
                  {r.session_id}
                </a>
                : line{r.bad_lines.length > 1 ? 's' : ''} {r.bad_lines.join(', ')} left out, {r.kept_lines} records kept; original in{' '}
                <span className="mono">{r.quarantine}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <h3>Sessions</h3>
      <div className="stats">
        {Object.entries(counts.by_status).map(([k, n]) => (
          <div key={k} className="stat" data-testid={`status-count-${k}`}>
            <b>{n}</b> {k}
          </div>
        ))}
        {Object.entries(counts.by_connection).map(([k, n]) => (
          <div key={`c${k}`} className={`stat state-${k}`}>
            <b>{n}</b> {k} now
          </div>
        ))}
        <div className="stat">
          <b>{counts.flagged}</b> marked pilot/test/excluded
        </div>
      </div>
      <h3>Phases</h3>
      <ol className="phases">
        {config.phases.map((p) => (
          <li key={p.id}>
            <b>{p.kind}</b> <span className="mono">{p.id}</span> — {p.title}
            {p.kind === 'puzzles' && ` (${p.count} puzzles, skip after ${p.skip_min_seconds} s${p.time_limit_seconds ? `, limit ${p.time_limit_seconds} s` : ''})`}
            {p.kind === 'warmup' && ` (cap ${p.cap_seconds} s)`}
          </li>
        ))}
      </ol>
      <h3>Study puzzles</h3>
      <div className="puzzle-grid">
        {config.puzzles.map((p) => (
          <PuzzleCard key={p.id} p={p} />
        ))}
      </div>
      <h3>Practice puzzles</h3>
      <div className="puzzle-grid">
        {config.practice_puzzles.map((p) => (
          <PuzzleCard key={p.id} p={p} />
        ))}
      </div>
      <details>
        <summary>The whole config (JSON)</summary>
        <pre className="config-json">{JSON.stringify(config, null, 2)}</pre>
      </details>
    </div>
  );
}
