import { describe, expect, it } from 'vitest';
import { startRequest } from './study.ts';
import { StartSessionRequest } from '../../shared/schema/api.ts';

describe('how a participant arrived', () => {
  it('reads Prolific, SONA, kiosk and general links into a valid start request', () => {
    const cases: [string, unknown][] = [
      ['?PROLIFIC_PID=abc123&STUDY_ID=st1&SESSION_ID=se1', { mode: 'panel', panel: { provider: 'prolific', participant_id: 'abc123', study_id: 'st1', session_id: 'se1' } }],
      ['?sona_id=4711', { mode: 'panel', panel: { provider: 'sona', participant_id: '4711' } }],
      ['?mode=kiosk&label=P07', { mode: 'kiosk', label: 'P07' }],
      ['', { mode: 'general' }],
    ];
    for (const [search, want] of cases) {
      const req = startRequest(new URLSearchParams(search));
      expect(req).toEqual(want);
      expect(StartSessionRequest.safeParse(req).success).toBe(true);
    }
  });
});
