import { describe, expect, it } from 'vitest';
import { loggedProgress } from './progress.ts';

const client = (seq: number, type = 'move', step = 0) => ({ origin: 'client', seq, type, step, payload: {} });

describe('loggedProgress', () => {
  it('counts client records up to the first gap and the step after the last step ended within them', () => {
    expect(loggedProgress([])).toEqual({ acked_seq: 0, step: 0 });
    const records = [
      { origin: 'server', type: 'session_start', payload: {} },
      client(1, 'step_end', 0),
      client(2),
      { origin: 'server', type: 'check', payload: {} },
      client(3, 'step_end', 2),
      // seq 4 is missing: what lies beyond the gap is not acknowledged.
      client(5, 'step_end', 3),
    ];
    expect(loggedProgress(records)).toEqual({ acked_seq: 3, step: 3 });
    // A record repeated (never written twice by the server, but a file could be edited by hand) does not count twice.
    expect(loggedProgress([client(1), client(1), client(2, 'step_end', 1)])).toEqual({ acked_seq: 2, step: 2 });
  });
});
