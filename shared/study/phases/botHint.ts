// A hint a bot asked for, the way the server answers and the page shows it, for every puzzle kind's bot: the call
// recorded (what the server was asked and answered), then, when there is a hint, the panel read for a moment and its
// text logged as `hint_shown`. The kind's own reveal move follows in the kind's player.
import type { Rng } from '../../random.ts';
import type { SimulatedPage } from './types.ts';

export function recordHint<H extends { row: number; col: number; explanation: string }>(
  w: SimulatedPage,
  rng: Rng,
  request: { puzzle_id: string; rows: string[] },
  found: H | null,
  answer: (h: H) => Record<string, unknown>,
): found is H {
  w.calls.push({
    type: 'hint',
    after_seq: w.seq,
    t_wall: w.wall,
    request: { puzzle_id: request.puzzle_id, position: w.step.position, rows: request.rows },
    hint: found && answer(found),
  } as SimulatedPage['calls'][number]);
  if (!found) return false;
  w.wait(150 + rng.int(100));
  w.log('hint_shown', { row: found.row, col: found.col, explanation: found.explanation.slice(0, 2_000) });
  return true;
}
