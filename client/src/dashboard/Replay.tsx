// Replay of one finished attempt: a timeline with play/pause, speed and scrubbing, the board at each moment, long
// pauses marked and moves that made the board wrong highlighted against the solution. One view for every kind; the
// kind gives its board, its fold (records.ts: a Nonogram's applyMove, a Sudoku's applySudokuMove) and its wrong cells.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { adminApi } from './adminApi.ts';
import { formatDuration, useLive } from './liveStore.ts';
import { MiniBoard } from './MiniBoard.tsx';
import { SudokuMini } from '../ui/SudokuMini.tsx';
import { attemptTimeline, frameAt, longPauses, sudokuTimeline, wrongCells, type AttemptTimeline, type LogRecord, type PuzzleShape } from './records.ts';
import { usePuzzles, useSudokuPuzzles } from './SessionView.tsx';
import { usePlayback } from './usePlayback.ts';
import { replayCellSize, sudokuReplayCellSize, useReplayCellSize } from './replayFit.ts';
import { initialBoard, type BoardState } from '../../../shared/game/board.ts';
import { initialSudoku, wrongSudokuCells, type SudokuState } from '../../../shared/sudoku/board.ts';
import { digitSymbol } from '../../../shared/sudoku/grid.ts';
import type { SudokuStudyPuzzle } from '../../../shared/schema/config.ts';
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
    case 'set_digit':
      return `write ${digitSymbol(m.digit)} at r${m.row + 1} c${m.col + 1}`;
    case 'pencil':
      return `pencil ${digitSymbol(m.digit)} at r${m.row + 1} c${m.col + 1}`;
    case 'reveal_digit':
      return `reveal ${digitSymbol(m.digit)} at r${m.row + 1} c${m.col + 1}`;
    default:
      return m.type;
  }
}

function Timeline({ tl, t, pauses, seek }: { tl: AttemptTimeline<unknown>; t: number; pauses: { from: number; to: number }[]; seek: (t: number) => void }) {
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
  const sudokuOf = useSudokuPuzzles();
  const studyLoaded = useLive((s) => s.overview !== null);
  const [records, setRecords] = useState<LogRecord[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    adminApi.records(id).then(setRecords, (err: Error) => setError(err.message));
  }, [id]);

  const startRecord = records?.find((r) => r.origin === 'client' && r.step === step && r.type === 'step_start');
  const puzzleId = startRecord?.origin === 'client' ? startRecord.puzzle_id : null;
  const nonogram = puzzleId ? puzzleOf(puzzleId) : undefined;
  const sudoku = puzzleId ? sudokuOf(puzzleId) : undefined;

  if (error) return <p className="error">{error}</p>;
  if (!records) return <p className="muted">Loading the session's records…</p>;
  if (!studyLoaded) return <p className="muted">Loading the study's puzzles…</p>;
  if (nonogram) return <NonogramReplay id={id} step={step} records={records} puzzle={nonogram} />;
  if (sudoku) return <SudokuReplay id={id} step={step} records={records} puzzle={sudoku} />;
  return <p className="error">Step {step} of this session has no puzzle to replay.</p>;
}

const ERROR_LEGEND = {
  nonogram: 'move that filled a cell the solution leaves empty',
  sudoku: 'digit entered that is not the solution’s',
};

function NonogramReplay({ id, step, records, puzzle }: { id: string; step: number; records: LogRecord[]; puzzle: PuzzleShape }) {
  const tl = useMemo(() => attemptTimeline(records, step, puzzle), [records, puzzle, step]);
  const fit = useCallback((width: number, height: number) => replayCellSize(puzzle, width, height), [puzzle]);
  return (
    <ReplayView
      id={id}
      puzzleId={puzzle.id}
      tl={tl}
      fit={fit}
      initial={initialBoard(puzzle.width, puzzle.height)}
      wrongOf={(board) => wrongCells(board, puzzle.solution)}
      errorLegend={ERROR_LEGEND.nonogram}
      board={(board: BoardState, wrong, cell) => <MiniBoard width={puzzle.width} height={puzzle.height} cells={board.grid.cells} rows={puzzle.rows} cols={puzzle.cols} wrong={wrong} cell={cell} testId="replay-board" />}
      solution={<MiniBoard width={puzzle.width} height={puzzle.height} solution={puzzle.solution} cell={12} />}
    />
  );
}

function SudokuReplay({ id, step, records, puzzle }: { id: string; step: number; records: LogRecord[]; puzzle: SudokuStudyPuzzle }) {
  const tl = useMemo(() => sudokuTimeline(records, step, puzzle), [records, puzzle, step]);
  const fit = useCallback((width: number, height: number) => sudokuReplayCellSize(puzzle.size, width, height), [puzzle]);
  const initial = useMemo(() => initialSudoku(puzzle.givens), [puzzle]);
  const solution = useMemo(() => initialSudoku(puzzle.solution), [puzzle]);
  return (
    <ReplayView
      id={id}
      puzzleId={puzzle.id}
      tl={tl}
      fit={fit}
      initial={initial}
      wrongOf={(board) => new Set(wrongSudokuCells(board, puzzle.solution))}
      errorLegend={ERROR_LEGEND.sudoku}
      board={(board: SudokuState, wrong, cell) => (
        <SudokuMini size={puzzle.size} box={puzzle.box} digits={board.cells.digits} given={board.given} marks={board.cells.marks} wrong={wrong} cell={cell} label="the participant's board" testId="replay-board" />
      )}
      solution={<SudokuMini size={puzzle.size} box={puzzle.box} digits={solution.cells.digits} given={initial.given} cell={Math.max(10, Math.floor(180 / puzzle.size))} label="the solution" testId="replay-solution" />}
    />
  );
}

interface ReplayViewProps<B> {
  id: string;
  puzzleId: string;
  tl: AttemptTimeline<B>;
  /** The kind's cell size for a column `width` px wide in a window `height` px high. */
  fit: (width: number, height: number) => number;
  /** The board before the first move. */
  initial: B;
  wrongOf: (board: B) => ReadonlySet<number>;
  errorLegend: string;
  board: (board: B, wrong: ReadonlySet<number>, cell: number) => ReactNode;
  solution: ReactNode;
}

function ReplayView<B>({ id, puzzleId, tl, fit, initial, wrongOf, errorLegend, board: draw, solution }: ReplayViewProps<B>) {
  const [threshold, setThreshold] = useState(DEFAULT_PAUSE_THRESHOLD_MS / 1000);
  const pauses = useMemo(() => longPauses(tl, threshold * 1000), [tl, threshold]);
  const playback = usePlayback(tl.duration);
  const boardBox = useRef<HTMLDivElement>(null);
  const cell = useReplayCellSize(boardBox, fit);

  const index = frameAt(tl, playback.t);
  const board = index >= 0 ? tl.frames[index].board : initial;
  const wrong = wrongOf(board);

  return (
    <div className="replay" data-testid="replay">
      <p>
        <a href={`#/session/${id}`}>← session {id}</a>
      </p>
      <h2>
        Replay: <span className="mono">{puzzleId}</span> {tl.position ? `at position ${tl.position}` : ''} · {tl.outcome ?? 'unfinished'}
      </h2>
      <p className="muted" data-testid="replay-summary">
        {tl.frames.length} moves over {formatDuration(tl.duration)} · {pauses.length} pauses over {threshold} s · {tl.errors} errors (counted as in attempts.csv)
      </p>
      <div className="columns">
        <div ref={boardBox} data-testid="replay-board-box">
          {draw(board, wrong, cell)}
          <p className="muted" data-testid="replay-position">
            {index + 1} / {tl.frames.length} · {formatDuration(playback.t)} · {wrong.size} wrong cells
          </p>
        </div>
        <div className="replay-side">
          <h3>Solution</h3>
          {solution}
          <ul className="legend">
            <li>
              <span className="tl-swatch pause" /> pause over the threshold
            </li>
            <li>
              <span className="tl-swatch error" /> {errorLegend}
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
