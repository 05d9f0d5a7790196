import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Outbox } from './outbox.ts';
import type { ClientEvent } from '../../shared/schema/event.ts';

class MemoryStorage {
  private data = new Map<string, string>();
  getItem(k: string): string | null {
    return this.data.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.data.set(k, v);
  }
  removeItem(k: string): void {
    this.data.delete(k);
  }
}

function event(seq: number): ClientEvent {
  return { session_id: 's1', seq, step: 0, phase: 'p', puzzle_id: null, position: null, t_mono: seq, t_wall: 1.7e12 + seq, source: 'mouse', type: 'focus', payload: { focused: true } };
}

describe('the outbox', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    (globalThis as { localStorage?: unknown }).localStorage = new MemoryStorage();
  });
  afterEach(() => {
    vi.useRealTimers();
    delete (globalThis as { localStorage?: unknown }).localStorage;
  });

  it('persists an event before sending it, and forgets it once acknowledged', async () => {
    const sent: number[][] = [];
    const box = new Outbox('s1', 0, async (events) => {
      sent.push(events.map((e) => e.seq));
      return events.at(-1)!.seq;
    });
    box.push(event(1));
    expect(JSON.parse(localStorage.getItem('nonolab.s1.queue')!)).toHaveLength(1);
    await vi.runAllTimersAsync();
    expect(sent).toEqual([[1]]);
    expect(JSON.parse(localStorage.getItem('nonolab.s1.queue')!)).toHaveLength(0);
    expect(box.status).toBe('saved');
  });

  it('batches what piles up while a request is out, retries with growing delays while offline, and drains', async () => {
    let online = false;
    const calls: { at: number; seqs: number[] }[] = [];
    let held = 0;
    const box = new Outbox('s1', 0, async (events) => {
      calls.push({ at: Date.now(), seqs: events.map((e) => e.seq) });
      if (!online) throw new TypeError('Failed to fetch');
      held = Math.max(held, events.at(-1)!.seq);
      return held;
    });
    const statuses: string[] = [];
    box.subscribe((s) => statuses.push(s));
    const start = Date.now();
    box.push(event(1));
    box.push(event(2));
    await vi.advanceTimersByTimeAsync(0);
    box.push(event(3));
    await vi.advanceTimersByTimeAsync(4_000);
    expect(statuses).toContain('offline');
    const gaps = calls.map((c, i) => (i === 0 ? c.at - start : c.at - calls[i - 1].at));
    expect(gaps.slice(1, 4)).toEqual([500, 1_000, 2_000]);
    expect(calls.at(-1)!.seqs).toEqual([1, 2, 3]);
    let drained = false;
    void box.drained().then(() => (drained = true));
    online = true;
    box.retryNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(drained).toBe(true);
    expect(box.pending()).toEqual([]);
    expect(held).toBe(3);
    expect(statuses.at(-1)).toBe('saved');
  });

  it('after a reload keeps only what the server has not acknowledged, and continues the numbering', () => {
    localStorage.setItem('nonolab.s1.queue', JSON.stringify([event(4), event(5), event(6)]));
    localStorage.setItem('nonolab.s1.seq', '6');
    const box = new Outbox('s1', 5, async () => 6);
    expect(box.pending().map((e) => e.seq)).toEqual([6]);
    expect(box.lastSeq()).toBe(6);
  });

  it('sets an event the server refused for good aside (kept here), sends a stand-in under its seq, and goes on', async () => {
    const refusal = Object.assign(new Error('invalid request body'), { refusedSeq: 2 });
    const sent: number[][] = [];
    let held = 0;
    const box = new Outbox(
      's1',
      0,
      async (events) => {
        sent.push(events.map((e) => e.seq));
        if (events.some((e) => e.type === 'focus' && e.seq === 2)) throw refusal;
        held = events.at(-1)!.seq;
        return held;
      },
      () => false,
      (err, batch) => {
        const seq = (err as { refusedSeq?: number }).refusedSeq;
        const bad = batch.find((e) => e.seq === seq);
        return bad ? { ...bad, type: 'client_error', payload: { refused_type: bad.type, error: 'refused', status: 400 } } : null;
      },
    );
    box.push(event(1));
    box.push(event(2));
    box.push(event(3));
    await vi.runAllTimersAsync();
    expect(held).toBe(3);
    expect(box.pending()).toEqual([]);
    expect(box.status).toBe('saved');
    // The refused event is kept in this browser, the stand-in went out under its seq, nothing was retried forever.
    expect(box.refused()).toEqual([event(2)]);
    expect(sent.length).toBeLessThanOrEqual(3);
  });

  it('stops retrying on an error the caller calls permanent', async () => {
    let calls = 0;
    const box = new Outbox(
      's1',
      0,
      async () => {
        calls++;
        throw new Error('gone');
      },
      () => true,
    );
    box.push(event(1));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls).toBe(1);
    expect(box.pending()).toHaveLength(1);
  });

  it('writes and sends nothing once stopped (another window took over)', async () => {
    let calls = 0;
    const box = new Outbox('s1', 0, async (events) => {
      calls++;
      return events.at(-1)!.seq;
    });
    box.push(event(1));
    box.stop();
    box.push(event(2));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(0);
    expect(JSON.parse(localStorage.getItem('nonolab.s1.queue')!).map((e: ClientEvent) => e.seq)).toEqual([1]);
  });
  it('once the server says the session has ended, sends nothing more and shows no pending state (issue 32)', async () => {
    // After a reload of the completion page, its page records get 409 (session ended): not "offline" for good.
    const storage = new MemoryStorage();
    let calls = 0;
    const box = new Outbox(
      's1',
      0,
      async () => {
        calls++;
        throw new Error('409 session ended');
      },
      () => 'ended',
      () => null,
      { storage },
    );
    const statuses: string[] = [];
    box.subscribe((st) => statuses.push(st));
    box.push(event(1));
    await vi.runAllTimersAsync();
    expect(calls).toBe(1);
    expect(box.status).toBe('ended');
    expect(box.pending()).toEqual([]);
    expect(JSON.parse(storage.getItem('nonolab.s1.queue')!)).toEqual([]);
    box.push(event(2));
    box.retryNow();
    await vi.runAllTimersAsync();
    expect(calls).toBe(1);
    expect(statuses).not.toContain('offline');
    await box.drained();
  });
});
