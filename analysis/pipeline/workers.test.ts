// runOnWorkers, the task queue on worker threads that extraction and `phase` share: every task once, errors stop the run.
import { describe, expect, it } from 'vitest';
import { runOnWorkers } from './workers.ts';
import { timedBoard } from '../commands/phaseBoard.ts';
import type { PhaseJob, PhaseResult } from '../commands/phaseWorker.ts';

const job = (index: number): PhaseJob => ({ index, size: 5, density: 0.5, board: index, seed: 3, encoding: 'line-gac', budget: undefined });

describe('runOnWorkers', () => {
  it('runs every task once on the workers, each answer matching the task run inline', async () => {
    const rows: PhaseResult[] = [];
    await runOnWorkers<PhaseResult>('phaseWorker', { threads: 2, count: 6, job, receive: (m) => (rows.push(m), true), label: 'test' });
    expect(rows.map((r) => r.index).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    for (const r of rows) {
      if ('error' in r) throw new Error(r.error);
      const { seconds: _, ...inline } = timedBoard(5, 0.5, r.index, 3, 'line-gac', undefined);
      const { seconds: __, ...threaded } = r.row;
      expect(threaded).toEqual(inline);
    }
  }, 60_000);

  it('stops at the first error a message raises and throws it', async () => {
    // one thread: task 1 fails, so exactly tasks 0 and 1 are given out and answered
    const given: number[] = [];
    let answered = 0;
    const failing = (index: number) => (given.push(index), index === 1 ? { ...job(index), encoding: 'no-such-encoding' as PhaseJob['encoding'], size: -1 } : job(index));
    const receive = (m: PhaseResult) => {
      answered++;
      if ('error' in m) throw new Error(`board ${m.index} failed: ${m.error}`);
      return true;
    };
    await expect(runOnWorkers<PhaseResult>('phaseWorker', { threads: 1, count: 50, job: failing, receive, label: 'test' })).rejects.toThrow(/board 1 failed/);
    expect(given).toEqual([0, 1]);
    expect(answered).toBe(2);
    // two threads: however the two workers' speeds fall (one may finish many tasks before the other starts), no task is
    // given out and no message is taken once the error is thrown
    given.length = 0;
    answered = 0;
    let atError = -1;
    const receive2 = (m: PhaseResult) => {
      answered++;
      if ('error' in m) {
        atError = given.length;
        throw new Error(`board ${m.index} failed: ${m.error}`);
      }
      return true;
    };
    await expect(runOnWorkers<PhaseResult>('phaseWorker', { threads: 2, count: 50, job: failing, receive: receive2, label: 'test' })).rejects.toThrow(/board 1 failed/);
    await new Promise((r) => setTimeout(r, 200));
    expect(given.length).toBe(atError);
    expect(answered).toBeLessThanOrEqual(atError);
  }, 60_000);

  it('gives out no task once stopped() is true', async () => {
    const seen: number[] = [];
    await runOnWorkers<PhaseResult>('phaseWorker', { threads: 2, count: 40, job, receive: (m) => (seen.push(m.index), true), stopped: () => seen.length >= 3, label: 'test' });
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.length).toBeLessThanOrEqual(4);
  }, 60_000);

  it('starts no worker for no task', async () => {
    await runOnWorkers<PhaseResult>('phaseWorker', { threads: 4, count: 0, job, receive: () => true, label: 'test' });
  });
});
