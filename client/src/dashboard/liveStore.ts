// The dashboard's live state: session summaries pushed by the server (SSE), the study overview, and a ticking clock.
import { useEffect, useState } from 'react';
import { create } from 'zustand';
import { DEFAULT_LIVENESS, type Liveness, type SessionSummary } from '../../../shared/study/summary.ts';
import { LiveChanges, SessionsResponse, adminApi, liveUrl, type Overview } from './adminApi.ts';

interface LiveState {
  sessions: Record<string, SessionSummary>;
  /** server clock minus browser clock, so time-in-phase and liveness follow the server. */
  offset: number;
  liveness: Liveness;
  connected: boolean;
  overview: Overview | null;
  error: string | null;
}

export const useLive = create<LiveState>(() => ({
  sessions: {},
  offset: 0,
  liveness: DEFAULT_LIVENESS,
  connected: false,
  overview: null,
  error: null,
}));

/** Open the live summary stream; returns a function that closes it. */
export function connectLive(): () => void {
  const source = new EventSource(liveUrl);
  source.addEventListener('snapshot', (e) => {
    const parsed = SessionsResponse.safeParse(JSON.parse((e as MessageEvent<string>).data));
    if (!parsed.success) return useLive.setState({ error: 'the server sent a snapshot this dashboard does not understand' });
    const { server_now, liveness, sessions } = parsed.data;
    useLive.setState({ sessions: Object.fromEntries(sessions.map((s) => [s.session_id, s])), offset: server_now - Date.now(), liveness, connected: true, error: null });
  });
  source.addEventListener('changes', (e) => {
    const parsed = LiveChanges.safeParse(JSON.parse((e as MessageEvent<string>).data));
    if (!parsed.success) return;
    const sessions = { ...useLive.getState().sessions };
    for (const m of parsed.data.messages) {
      if (m.type === 'summary') sessions[m.summary.session_id] = m.summary;
      else delete sessions[m.session_id];
    }
    useLive.setState({ sessions, offset: parsed.data.server_now - Date.now() });
  });
  source.onerror = () => {
    useLive.setState({ connected: false });
    // The browser retries by itself; if the login ran out, the 401 handler shows the login instead.
    adminApi.me().catch(() => source.close());
  };
  return () => source.close();
}

export async function loadOverview(): Promise<void> {
  try {
    useLive.setState({ overview: await adminApi.overview() });
  } catch (err) {
    useLive.setState({ error: (err as Error).message });
  }
}

/** The server's "now", re-rendering every `everyMs`. */
export function useServerNow(everyMs = 1_000): number {
  const offset = useLive((s) => s.offset);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now + offset;
}

export function formatDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}
