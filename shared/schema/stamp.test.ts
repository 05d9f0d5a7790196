// The client's stamping: a valid action becomes its event; an invalid one becomes a valid client_error under the same
// seq, so the outbox never holds an event the server must refuse.
import { describe, expect, it } from 'vitest';
import { ClientEvent, LoggedEvent } from './event.ts';
import { clientErrorFor, receiveClient, stampClient, stampServer, type ClientStamp } from './stamp.ts';

const stamp: ClientStamp = {
  session_id: 's0123456789abcdef',
  seq: 7,
  step: 5,
  phase: 'puzzles',
  puzzle_id: 'p1',
  position: 1,
  t_mono: 1234.5,
  t_wall: 1_780_000_000_000,
  source: 'mouse',
};

describe('stampClient', () => {
  it('stamps a valid action with the session, the step and both clocks', () => {
    const e = stampClient(stamp, 'rating', { difficulty: 3, guessing: 'Never' });
    expect(e).toEqual({ ...stamp, type: 'rating', payload: { difficulty: 3, guessing: 'Never' } });
  });

  it('puts a valid client_error, under the same seq and step, in place of an action the schema refuses', () => {
    const bad = [
      ['rating', { difficulty: 9, guessing: 'x' }],
      ['rating', { difficulty: 2, guessing: 'x'.repeat(201) }],
      ['survey_submit', { survey_id: 'post_survey', answers: { ['k'.repeat(81)]: 'too long a key' } }],
      ['move', { move: { type: 'teleport' } }],
    ] as const;
    for (const [type, payload] of bad) {
      const e = stampClient(stamp, type, payload);
      expect(ClientEvent.safeParse(e).success).toBe(true);
      expect(e).toMatchObject({ type: 'client_error', seq: 7, step: 5, phase: 'puzzles', session_id: stamp.session_id, payload: { refused_type: type, status: null } });
      expect((e as { payload: { error: string } }).payload.error).toMatch(/^invalid event: payload\./);
    }
    // A clock the schema cannot take (a broken performance.now) is named too, and the stand-in is still valid.
    const e = stampClient({ ...stamp, t_mono: -1 }, 'focus', { focused: true });
    expect(e.type).toBe('client_error');
    expect((e as { payload: { error: string } }).payload.error).toContain('t_mono');
  });

  it('keeps the refused event\'s own step when it is usable, else the fallback\'s', () => {
    const fallback = { session_id: stamp.session_id, step: 9, phase: 'post_survey', puzzle_id: null, position: null, t_mono: 1, t_wall: 1_780_000_000_001 };
    expect(clientErrorFor({ seq: 3, step: 4, phase: 'puzzles', type: 'move' }, 'refused', 400, fallback)).toMatchObject({ seq: 3, step: 4, phase: 'puzzles', payload: { status: 400 } });
    const odd = clientErrorFor({ seq: 3, step: -2, phase: '<script>', type: 'x'.repeat(40) }, 'e'.repeat(3_000), 400, fallback);
    expect(odd).toMatchObject({ step: 9, phase: 'post_survey' });
    expect(ClientEvent.safeParse(odd).success).toBe(true);
  });

  it('takes a move through the fast path and still refuses an invalid one', () => {
    expect(stampClient(stamp, 'move', { move: { type: 'fill', row: 1, col: 2 } })).toMatchObject({ type: 'move', payload: { move: { type: 'fill', row: 1, col: 2 } } });
    expect(stampClient(stamp, 'move', { move: { type: 'fill', row: 100, col: 2 } }).type).toBe('client_error');
  });
});

describe('the server`s stamps (stampServer, receiveClient)', () => {
  const at = { t_server: 1_780_000_000_500, config_hash: 'abc', app_version: '0.1.0' };
  it('make records the log schema takes, with origin and the server`s clock, hash and version', () => {
    const mark = stampServer({ type: 'session_mark', session_id: stamp.session_id, payload: { mark: 'pilot', by: 'experimenter' } }, at);
    expect(mark).toEqual({ type: 'session_mark', session_id: stamp.session_id, payload: { mark: 'pilot', by: 'experimenter' }, origin: 'server', ...at });
    expect(LoggedEvent.safeParse(mark).success).toBe(true);
    const event = stampClient(stamp, 'focus', { focused: true });
    const received = receiveClient(event, at);
    expect(received).toEqual({ ...event, origin: 'client', ...at });
    expect(LoggedEvent.safeParse(received).success).toBe(true);
    expect(event).not.toHaveProperty('origin'); // the client's event itself is left as it was
  });
});
