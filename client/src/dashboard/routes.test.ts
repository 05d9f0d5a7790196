// Tests for the dashboard's hash routes.
import { describe, expect, it } from 'vitest';
import { parseRoute } from './routes.ts';

describe('parseRoute', () => {
  it('reads every page from the hash', () => {
    expect(parseRoute('')).toEqual({ page: 'live' });
    expect(parseRoute('#/')).toEqual({ page: 'live' });
    expect(parseRoute('#/session/s12ab')).toEqual({ page: 'session', id: 's12ab' });
    expect(parseRoute('#/session/s12ab/replay/4')).toEqual({ page: 'replay', id: 's12ab', step: 4 });
    expect(parseRoute('#/pool')).toEqual({ page: 'pool' });
    expect(parseRoute('#/overview')).toEqual({ page: 'overview' });
    expect(parseRoute('#/exports')).toEqual({ page: 'exports' });
    expect(parseRoute('#/recruitment')).toEqual({ page: 'recruitment' });
    expect(parseRoute('#/find')).toEqual({ page: 'find', q: '' });
    expect(parseRoute('#/find/PID%20x')).toEqual({ page: 'find', q: 'PID x' });
  });

  it('falls back to the live page on anything else', () => {
    expect(parseRoute('#/session/s1/replay/x')).toEqual({ page: 'session', id: 's1' });
    expect(parseRoute('#/nonsense')).toEqual({ page: 'live' });
  });
});
