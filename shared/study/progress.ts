// What a session has done so far, folded from its records (for resume and for the post-survey), and what the server acknowledged.
import type { ClientEvent, LoggedEvent } from '../schema/event.ts';
import type { Move } from '../schema/move.ts';
import { replayMoves, boardRows } from '../game/board.ts';
import { stepAfter } from '../log/rules.ts';

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

/**
 * Fold a session's records, in order, into what resume needs: the moves of every step (to rebuild its board), the
 * latest rating of every puzzle (a revision overrides its difficulty), how each puzzle step ended. Takes the server's
 * logged records (server records are skipped) as well as the client's own unsent events (the boot merge).
 */
export function sessionProgress(events: readonly (LoggedEvent | ClientEvent)[]): SessionProgress {
  const progress: SessionProgress = { ratings: {}, outcomes: {}, movesByStep: {} };
  for (const e of events) {
    if ('origin' in e && e.origin !== 'client') continue;
    const c = e as ClientEvent;
    if (c.type === 'move') (progress.movesByStep[c.step] ??= []).push(c.payload.move);
    else if (c.type === 'rating' && c.puzzle_id !== null) progress.ratings[c.puzzle_id] = { difficulty: c.payload.difficulty, guessing: c.payload.guessing };
    else if (c.type === 'rating_revise') {
      const id = c.payload.rated_puzzle_id;
      if (progress.ratings[id]) progress.ratings[id] = { ...progress.ratings[id], difficulty: c.payload.to };
    } else if (c.type === 'step_end' && c.puzzle_id !== null && c.payload.kind !== 'rating') {
      const reason = c.payload.reason;
      if (reason === 'solved' || reason === 'skipped' || reason === 'timeout' || reason === 'done') progress.outcomes[c.puzzle_id] = reason;
    }
  }
  return progress;
}

/**
 * What the server has acknowledged, from a session's logged records: the highest client sequence number reached
 * without a gap, and the step after the last step ended within it (shared/log/rules.ts). SQLite's `acked_seq` and
 * `step` mirror this; after a crash the server recomputes them with it.
 */
export function loggedProgress(records: readonly LoggedEvent[]): { acked_seq: number; step: number } {
  let acked = 0;
  let step = 0;
  for (const r of records)
    if (r.origin === 'client' && r.seq === acked + 1) {
      acked += 1;
      step = stepAfter(step, r);
    }
  return { acked_seq: acked, step };
}

/** The board a step ended with, as rows of '#', 'x', '?'. */
export function finalRows(movesByStep: SessionProgress['movesByStep'], step: number, width: number, height: number): string[] {
  return boardRows(replayMoves(width, height, movesByStep[step] ?? []).grid);
}
