// Replay of one finished attempt: a timeline with play/pause, speed and scrubbing, the board at each moment, long
// pauses marked and moves that made the board wrong highlighted against the solution.
import { useEffect, useMemo, useRef, useState } from 'react';
import { adminApi } from './adminApi.ts';
import { formatDuration } from './liveStore.ts';
import { MiniBoard } from './MiniBoard.tsx';
import { attemptTimeline, frameAt, longPauses, wrongCells, type AttemptTimeline, type LogRecord } from './records.ts';
import { usePuzzles } from './SessionView.tsx';
import { usePlayback } from './usePlayback.ts';
import { useReplayCellSize } from './replayFit.ts';
import { initialBoard } from '../../../shared/game/board.ts';
import type { Move } from '../../../shared/schema/move.ts';

/** Until the analysis supplies its own, pauses of 2.36 s and longer are marked. */
export const DEFAULT_PAUSE_THRESHOLD_MS = 2_360;

function describeMove(m: Move): string {
  switch (m.type) {
    case 'fill':
    case 'cross':
    case 'clear':
      return `${m.type} r${m.row + 1} c${m.col + 1}`;
    case 'reveal':
      return `reveal r${m.row + 1} c${m.col + 1} (${m.state})`;
    case 'stroke':
      return `stroke ${m.state} ×${m.cells.length} from r${m.cells[0][0] + 1} c${m.cells[0][1] + 1}`;
    default:
      return m.type;
  }
}

function Timeline({ tl, t, pauses, seek }: { tl: AttemptTimeline; t: number; pauses: { from: number; to: number }[]; seek: (t: number) => void }) {
  const d = Math.max(1, tl.duration);
  const pct = (x: number) => `${(100 * x) / d}%`;
  return (
    <div
      className="timeline"
      data-testid="timeline"
      onClick={(e) => {
        const box = (e.currentTarget as HTMLElement).getBoundingClientRect();
        seek(((e.clientX - box.left) / box.width) * d);
      }}
    >
      {pauses.map((p, i) => (
        <div key={`p${i}`} className="tl-pause" style={{ left: pct(p.from), width: pct(p.to - p.from) }} title={`pause ${formatDuration(p.to - p.from)}`} />
      ))}
      {tl.frames.map((f, i) => (
        <div key={`f${i}`} className={`tl-move${f.introduced_error ? ' error' : ''}`} style={{ left: pct(f.t) }} title={`${formatDuration(f.t)} ${describeMove(f.move)}`} />
      ))}
      {tl.marks.map((m, i) => (
        <div key={`m${i}`} className={`tl-mark ${m.kind}`} style={{ left: pct(m.t) }} title={m.label} />
      ))}
      <div className="tl-cursor" style={{ left: pct(t) }} />
    </div>
  );
}

export function Replay({ id, step }: { id: string; step: number }) {
  const puzzleOf = usePuzzles();
  const [records, setRecords] = useState<LogRecord[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [threshold, setThreshold] = useState(DEFAULT_PAUSE_THRESHOLD_MS / 1000);

  useEffect(() => {
    adminApi.records(id).then(setRecords, (err: Error) => setError(err.message));
  }, [id]);

  const startRecord = records?.find((r) => r.origin === 'client' && r.step === step && r.type === 'step_start');
  const puzzleId = startRecord?.origin === 'client' ? startRecord.puzzle_id : null;
  const puzzle = puzzleId ? puzzleOf(puzzleId) : undefined;
  const tl = useMemo(() => (records && puzzle ? attemptTimeline(records, step, puzzle) : null), [records, puzzle, step]);
  const pauses = useMemo(() => (tl ? longPauses(tl, threshold * 1000) : []), [tl, threshold]);
  const playback = usePlayback(tl?.duration ?? 0);
  const boardBox = useRef<HTMLDivElement>(null);
  const cell = useReplayCellSize(boardBox, tl ? puzzle : undefined); // measured once the board is on the page

  if (error) return <p className="error">{error}</p>;
  if (!records) return <p className="muted">Loading the session's records…</p>;
  if (!puzzle || !tl) return <p className="error">Step {step} of this session has no puzzle to replay.</p>;

  const index = frameAt(tl, playback.t);
  const board = index >= 0 ? tl.frames[index].board : initialBoard(puzzle.width, puzzle.height);
  const wrong = wrongCells(board, puzzle.solution);

  return (
    <div className="replay" data-testid="replay">
      <p>
        <a href={`#/session/${id}`}>← session {id}</a>
      </p>
      <h2>
        Replay: <span className="mono">{puzzle.id}</span> {tl.position ? `at position ${tl.position}` : ''} · {tl.outcome ?? 'unfinished'}
      </h2>
      <p className="muted">
        {tl.frames.length} moves over {formatDuration(tl.duration)} · {pauses.length} pauses over {threshold} s · {tl.errors} errors (counted as in attempts.csv)
      </p>
      <div className="columns">
        <div ref={boardBox} data-testid="replay-board-box">
          <MiniBoard width={puzzle.width} height={puzzle.height} cells={board.grid.cells} rows={puzzle.rows} cols={puzzle.cols} wrong={wrong} cell={cell} testId="replay-board" />
          <p className="muted" data-testid="replay-position">
            {index + 1} / {tl.frames.length} · {formatDuration(playback.t)} · {wrong.size} wrong cells
          </p>
        </div>
        <div className="replay-side">
          <h3>Solution</h3>
          <MiniBoard width={puzzle.width} height={puzzle.height} solution={puzzle.solution} cell={12} />
          <ul className="legend">
            <li>
              <span className="tl-swatch pause" /> pause over the threshold
            </li>
            <li>
              <span className="tl-swatch error" /> move that filled a cell the solution leaves empty
            </li>
            <li>
              <span className="tl-swatch submit" /> wrong submission
            </li>
            <li>
              <span className="tl-swatch solved" /> solved
            </li>
            <li>
              <span className="tl-swatch hint" /> hint
            </li>
          </ul>
        </div>
      </div>
      <div className="controls">
        {playback.playing ? (
          <button onClick={playback.pause} data-testid="pause">
            ❚❚ Pause
          </button>
        ) : (
          <button className="primary" onClick={playback.play} data-testid="play">
            ▶ Play
          </button>
        )}
        <button onClick={() => playback.seek(index > 0 ? tl.frames[index - 1].t : 0)} data-testid="prev">
          ◀ move
        </button>
        <button onClick={() => index + 1 < tl.frames.length && playback.seek(tl.frames[index + 1].t)} data-testid="next">
          move ▶
        </button>
        <button onClick={() => playback.seek(tl.duration)} data-testid="to-end">
          end ▶|
        </button>
        <label>
          speed{' '}
          <select value={playback.speed} onChange={(e) => playback.setSpeed(Number(e.target.value))} data-testid="speed">
            {[0.5, 1, 2, 4, 8, 16, 32].map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
        <label>
          pause threshold{' '}
          <input type="number" min={0.1} step={0.01} value={threshold} onChange={(e) => setThreshold(Number(e.target.value) || DEFAULT_PAUSE_THRESHOLD_MS / 1000)} style={{ width: '5em' }} /> s
        </label>
      </div>
      <input
        type="range"
        className="scrub"
        min={0}
        max={Math.max(1, Math.round(tl.duration))}
        value={Math.round(playback.t)}
        onChange={(e) => playback.seek(Number(e.target.value))}
        aria-label="scrub through the attempt"
        data-testid="scrub"
      />
      <Timeline tl={tl} t={playback.t} pauses={pauses} seek={playback.seek} />
      <ol className="moves" data-testid="move-list">
        {tl.frames.map((f, i) => {
          const pauseBefore = f.t - (i > 0 ? tl.frames[i - 1].t : 0);
          return (
            <li key={i} className={`${i === index ? 'current' : ''}${f.introduced_error ? ' error' : ''}`} onClick={() => playback.seek(f.t)}>
              <span className="mono">{(f.t / 1000).toFixed(1)}s</span> {describeMove(f.move)}
              {pauseBefore >= threshold * 1000 && <span className="pause-tag">after {(pauseBefore / 1000).toFixed(1)} s pause</span>}
              {f.introduced_error && <span className="error-tag">wrong ({f.wrong})</span>}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
