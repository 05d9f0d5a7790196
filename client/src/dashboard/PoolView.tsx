// The sequence pool: free, leased and used sequences, and the per-puzzle and per-(puzzle, position) balance table.
import { useEffect, useState } from 'react';
import { adminApi, type PoolResponse } from './adminApi.ts';
import { useLive } from './liveStore.ts';

/** Shade a count between the table's least and most (even balance shows as one colour). */
function shade(n: number, min: number, max: number): string {
  if (max === min) return 'hsl(140 40% 92%)';
  const x = (n - min) / (max - min);
  return `hsl(${140 - 110 * x} 60% ${92 - 22 * x}%)`;
}

export function PoolView() {
  const [pool, setPool] = useState<PoolResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [showSequences, setShowSequences] = useState(false);
  const sessions = useLive((s) => s.sessions);

  // Refresh when the sessions change (a start, a completion, a withdrawal, a flag).
  useEffect(() => {
    adminApi.pool().then(setPool, (err: Error) => setError(err.message));
  }, [sessions]);

  if (error) return <p className="error">{error}</p>;
  if (!pool) return <p className="muted">Loading the pool…</p>;
  const b = pool.balance;
  const perPuzzle = b.puzzles.map((p) => b.per_puzzle[p] ?? 0);
  const cells = b.puzzles.flatMap((p) => b.per_position[p] ?? []);
  const [pmin, pmax] = [Math.min(...perPuzzle), Math.max(...perPuzzle)];
  const [cmin, cmax] = cells.length ? [Math.min(...cells), Math.max(...cells)] : [0, 0];

  return (
    <div data-testid="pool">
      <div className="stats">
        <div className="stat" data-testid="pool-free">
          <b>{b.free}</b> free
        </div>
        <div className="stat" data-testid="pool-leased">
          <b>{b.leased}</b> leased
        </div>
        <div className="stat" data-testid="pool-used">
          <b>{b.used}</b> used
        </div>
        <div className="stat" data-testid="pool-flagged">
          <b>{b.flagged}</b> of pilot/test/excluded sessions, not counted
        </div>
        <div className="stat">
          round <b>{b.current_round}</b>
        </div>
        <div className={`stat ${b.puzzle_spread > 2 ? 'bad' : ''}`} data-testid="pool-spread">
          spread <b>{b.puzzle_spread}</b> per puzzle · <b>{b.position_spread}</b> per position
        </div>
      </div>
      <table className="balance" data-testid="balance-table">
        <thead>
          <tr>
            <th>Puzzle</th>
            <th>Attempts</th>
            {Array.from({ length: b.positions }, (_, i) => (
              <th key={i}>@{i + 1}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {b.puzzles.map((p) => (
            <tr key={p} data-testid={`balance-${p}`}>
              <td className="mono">{p}</td>
              <td style={{ background: shade(b.per_puzzle[p] ?? 0, pmin, pmax) }} data-testid={`attempts-${p}`}>
                {b.per_puzzle[p] ?? 0}
              </td>
              {(b.per_position[p] ?? []).map((n, i) => (
                <td key={i} style={{ background: shade(n, cmin, cmax) }}>
                  {n}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        <button onClick={() => setShowSequences((v) => !v)}>{showSequences ? 'Hide' : 'Show'} all {pool.sequences.length} sequences</button>
      </p>
      {showSequences && (
        <table className="plain" data-testid="sequences">
          <thead>
            <tr>
              <th>#</th>
              <th>Round</th>
              <th>Sequence</th>
              <th>Status</th>
              <th>Session</th>
            </tr>
          </thead>
          <tbody>
            {pool.sequences.map((s) => (
              <tr key={s.id} className={`seq-${s.status}`}>
                <td>{s.id}</td>
                <td>{s.round}</td>
                <td className="mono">{s.puzzle_ids.join(' → ')}</td>
                <td>{s.status}</td>
                <td className="mono">
                  {s.session_id ? <a href={`#/session/${s.session_id}`}>{s.session_id}</a> : ''}
                  {s.flag && <span className={`flag flag-${s.flag}`}>{s.flag}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
