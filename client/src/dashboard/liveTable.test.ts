// The live table, rendered (server-side, as the browser's first paint): the filter's placeholder fits, and the counts
// are the study puzzles' (the tutorial's practice submit is not a wrong submission) (issue 32).
import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { parseRecord } from '../../../shared/log/record.ts';
import type { LoggedEvent } from '../../../shared/schema/event.ts';
import { summarizeSession } from '../../../shared/study/summary.ts';
import { FILTER_PLACEHOLDER, LiveTableView } from './LiveTable.tsx';
import { DEFAULT_LIVENESS } from '../../../shared/study/summary.ts';

const T0 = 1_780_000_000_000;
const stamps = { config_hash: 'h', app_version: '0.1.0' };
let seq = 0;
function read(raw: object): LoggedEvent {
  const parsed = parseRecord(raw);
  if (parsed.kind !== 'event') throw new Error(`not a logged event: ${JSON.stringify(parsed)}`);
  return parsed.event;
}
const client = (type: string, step: number, t: number, payload: object, extra: object) =>
  read({ session_id: 's1', origin: 'client', type, step, t_mono: t, t_wall: T0 + t, source: 'mouse', t_server: T0 + t, seq: ++seq, payload, ...stamps, ...extra });
const server = (type: string, t: number, payload: object) => read({ session_id: 's1', origin: 'server', type, t_server: T0 + t, payload, ...stamps });

const view = (sessions: Record<string, ReturnType<typeof summarizeSession>>) =>
  renderToStaticMarkup(createElement(LiveTableView, { sessions, liveness: DEFAULT_LIVENESS, connected: true, now: T0 + 1_000, open: () => {} }));

describe('LiveTable', () => {
  it("the filter box is wide enough for its placeholder", () => {
    const html = view({});
    const input = html.match(/<input type="search"[^>]*>/)![0];
    expect(input).toContain(`placeholder="${FILTER_PLACEHOLDER}"`);
    // Chromium sizes a text box by its size attribute (average characters); the min-width in ch keeps it there in a flex toolbar.
    expect(Number(input.match(/size="(\d+)"/)![1])).toBeGreaterThanOrEqual(FILTER_PLACEHOLDER.length + 2);
    expect(Number(input.match(/min-width:(\d+)ch/)![1])).toBeGreaterThanOrEqual(FILTER_PLACEHOLDER.length + 2);
  });

  it("counts the study puzzles' wrong submissions and hints, not the tutorial's practice submit", () => {
    const tut = { phase: 'tutorial', puzzle_id: 'practice', position: null };
    const onA = { phase: 'puzzles', puzzle_id: 'a', position: 1 };
    const records = [
      server('session_start', 0, { mode: 'general', sequence: ['a'], sequence_id: 1, round: 1 }),
      client('step_start', 1, 100, { kind: 'tutorial' }, tut),
      client('move', 1, 200, { move: { type: 'fill', row: 0, col: 0 } }, tut),
      client('move', 1, 300, { move: { type: 'submit' } }, tut),
      server('check', 310, { puzzle_id: 'practice', position: null, solved: false, wrong_cells: 1 }),
      client('step_end', 1, 400, { kind: 'tutorial', reason: 'done' }, tut),
      client('step_start', 2, 500, { kind: 'puzzle' }, onA),
      client('move', 2, 600, { move: { type: 'fill', row: 0, col: 0 } }, onA),
      server('hint', 700, { puzzle_id: 'a', row: 0, col: 1, kind: 'cell', reasoning: 'overlap' }),
    ];
    const s = summarizeSession({ session_id: 's1', mode: 'general', label: null, status: 'active', created_at: T0, sequence: ['a'], total_steps: 4 }, records);
    const html = view({ s1: s });
    expect(html).toContain('data-testid="wrong-s1">0<');
    expect(html).toContain('data-testid="hints-s1">1<');
    expect(html).toContain('data-testid="moves-s1">1<');
    // The headers say what they count.
    expect(html).toMatch(/title="[^"]*study puzzles[^"]*practice[^"]*"/);
  });
});
