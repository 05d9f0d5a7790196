// The bot participant: deterministic for a seed, valid client events, and behaviour that follows skill and the planted effect.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StudyConfig, nonogramsOnly } from '../../shared/schema/config.ts';
import { ClientEvent } from '../../shared/schema/event.ts';
import { createRng } from '../../shared/random.ts';
import { botSession, standardiseMetric, DEFAULT_EFFECT } from './bot.ts';
import { replayMoves, matchesSolution, boardRows } from '../../shared/game/board.ts';
import { expandSteps } from '../../shared/study/steps.ts';

const config = StudyConfig.parse(JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'bot-study.json'), 'utf8')));
const ids = config.puzzles.map((p) => p.id);
const metric = standardiseMetric(Object.fromEntries(ids.map((id, i) => [id, i])));
const effect = { ...DEFAULT_EFFECT, metric };
const sequence = ids.slice(0, 3);
const run = (seed: number, skill: number) => botSession({ config, session_id: 'sbot', sequence, skill, rng: createRng(seed), start_ms: 1_780_000_000_000, effect });

describe('bot participant', () => {
  it('is deterministic: the same seed gives the same session, another seed another', () => {
    expect(JSON.stringify(run(7, 0.3))).toBe(JSON.stringify(run(7, 0.3)));
    expect(JSON.stringify(run(8, 0.3))).not.toBe(JSON.stringify(run(7, 0.3)));
  });

  it('sends schema-valid client events with contiguous sequence numbers and non-decreasing clocks', () => {
    const s = run(3, 0);
    s.events.forEach((e, i) => {
      const ok = ClientEvent.safeParse(e);
      expect(ok.success, JSON.stringify(ok.error?.issues)).toBe(true);
      expect(e.seq).toBe(i + 1);
      if (i > 0) {
        expect(e.t_mono).toBeGreaterThanOrEqual(s.events[i - 1].t_mono);
        expect(e.t_wall).toBeGreaterThanOrEqual(s.events[i - 1].t_wall);
      }
    });
    expect(s.calls.at(-1)).toMatchObject({ type: 'complete', last_seq: s.events.length });
  });

  it('walks every step and leaves solved boards solved', () => {
    const s = run(11, 1);
    const steps = expandSteps(config.phases, sequence);
    const started = s.events.filter((e) => e.type === 'step_start').map((e) => e.step);
    expect(started).toEqual(steps.map((st) => st.index));
    for (const st of steps.filter((x) => x.kind === 'puzzle')) {
      const end = s.events.find((e) => e.type === 'step_end' && e.step === st.index)!;
      if (end.type === 'step_end' && end.payload.reason === 'solved') {
        const moves = s.events.flatMap((e) => (e.type === 'move' && e.step === st.index ? [e.payload.move] : []));
        const puzzle = nonogramsOnly(config.puzzles, 'this test').find((p) => p.id === st.puzzle_id)!;
        expect(matchesSolution(boardRows(replayMoves(puzzle.width, puzzle.height, moves).grid), puzzle.solution!)).toBe(true);
      }
    }
  });

  it('makes skilled bots faster and rates high-metric puzzles harder', () => {
    const durations = (skill: number) => {
      let total = 0;
      for (let seed = 0; seed < 20; seed++) {
        const s = run(seed, skill);
        const moves = s.events.filter((e) => e.type === 'move' && e.position !== null);
        total += moves[moves.length - 1].t_mono - moves[0].t_mono;
      }
      return total;
    };
    expect(durations(1.5)).toBeLessThan(durations(-1.5));
    const ratingOf = (id: string) => {
      let sum = 0, n = 0;
      for (let seed = 0; seed < 40; seed++) {
        const s = botSession({ config, session_id: 'sbot', sequence: [id, ...ids.filter((x) => x !== id).slice(0, 2)], skill: 0, rng: createRng(seed), start_ms: 1_780_000_000_000, effect });
        const r = s.events.find((e) => e.type === 'rating' && e.puzzle_id === id);
        if (r?.type === 'rating' && r.payload.difficulty !== null) (sum += r.payload.difficulty), n++;
      }
      return sum / n;
    };
    expect(ratingOf(ids[ids.length - 1])).toBeGreaterThan(ratingOf(ids[0]) + 0.5);
  });
});
