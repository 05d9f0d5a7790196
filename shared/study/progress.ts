// What a session has done so far, derived from its logged client events (for resume and for the post-survey).
import type { Move } from '../schema/move.ts';
import { Move as MoveSchema } from '../schema/move.ts';
import { replayMoves, boardRows } from '../game/board.ts';

export interface RatingRecord {
  difficulty: number | null;
  guessing: string;
}

export type Outcome = 'solved' | 'skipped' | 'timeout' | 'done';

export interface SessionProgress {
  /** Latest rating per puzzle id (revisions in the post-survey override). */
  ratings: Record<string, RatingRecord>;
  /** How each puzzle step ended. */
  outcomes: Record<string, Outcome>;
  /** Moves per step index, in order. */
  movesByStep: Record<number, Move[]>;
}

interface EventLike {
  origin?: unknown;
  seq?: unknown;
  type?: unknown;
  step?: unknown;
  puzzle_id?: unknown;
  payload?: unknown;
}

export function sessionProgress(events: readonly EventLike[]): SessionProgress {
  const progress: SessionProgress = { ratings: {}, outcomes: {}, movesByStep: {} };
  for (const e of events) {
    if (e.origin !== undefined && e.origin !== 'client') continue;
    const payload = e.payload as Record<string, unknown>;
    if (e.type === 'move' && typeof e.step === 'number') {
      const move = MoveSchema.safeParse(payload.move);
      if (move.success) (progress.movesByStep[e.step] ??= []).push(move.data);
    } else if (e.type === 'rating' && typeof e.puzzle_id === 'string') {
      progress.ratings[e.puzzle_id] = { difficulty: payload.difficulty as number | null, guessing: String(payload.guessing) };
    } else if (e.type === 'rating_revise') {
      const id = String(payload.rated_puzzle_id);
      if (progress.ratings[id]) progress.ratings[id] = { ...progress.ratings[id], difficulty: payload.to as number | null };
    } else if (e.type === 'step_end' && typeof e.puzzle_id === 'string' && payload.kind !== 'rating') {
      progress.outcomes[e.puzzle_id] = payload.reason as Outcome;
    }
  }
  return progress;
}

/**
 * What the server has acknowledged, from a session's logged records: the highest client sequence number reached
 * without a gap, and the step after the last step ended within it. SQLite's `acked_seq` and `step` mirror this; after
 * a crash the server recomputes them with it.
 */
export function loggedProgress(records: readonly EventLike[]): { acked_seq: number; step: number } {
  let acked = 0;
  let step = 0;
  for (const r of records)
    if (r.origin === 'client' && r.seq === acked + 1) {
      acked += 1;
      if (r.type === 'step_end' && typeof r.step === 'number') step = Math.max(step, r.step + 1);
    }
  return { acked_seq: acked, step };
}

/** The board a step ended with, as rows of '#', 'x', '?'. */
export function finalRows(movesByStep: SessionProgress['movesByStep'], step: number, width: number, height: number): string[] {
  return boardRows(replayMoves(width, height, movesByStep[step] ?? []).grid);
}
