// Find a participant: by panel id (Prolific PID, SONA id), completion code or session id, and act on the session right here.
import { useEffect, useState } from 'react';
import type { LookupMatch } from '../../../shared/schema/admin.ts';
import { adminApi } from './adminApi.ts';
import { Actions } from './SessionView.tsx';

const when = (ms: number | null) => (ms === null ? '—' : new Date(ms).toLocaleString());

function Match({ m, onChanged, onWithdrawn }: { m: LookupMatch; onChanged: () => void; onWithdrawn: (report: string) => void }) {
  return (
    <section className="panel lookup-match" data-testid={`match-${m.session_id}`}>
      <h3>
        Session{' '}
        <a className="mono" href={`#/session/${encodeURIComponent(m.session_id)}`}>
          {m.session_id}
        </a>{' '}
        <span className="badge">{m.status}</span>
        {m.flag && <span className={`flag flag-${m.flag}`}>{m.flag}</span>}
        <span className="muted"> · found by {m.matched_by.replace('_', ' ')}</span>
      </h3>
      <dl className="facts">
        {m.panel && (
          <>
            <dt>Panel</dt>
            <dd data-testid="match-panel">
              {m.panel.provider} <span className="mono">{m.panel.participant_id}</span>
              {m.panel.study_id ? <span className="muted"> · study {m.panel.study_id}</span> : null}
              {m.panel.session_id ? <span className="muted"> · panel session {m.panel.session_id}</span> : null}
            </dd>
          </>
        )}
        <dt>Link</dt>
        <dd>
          {m.mode}
          {m.label ? ` · ${m.label}` : ''}
        </dd>
        <dt>Completion code</dt>
        <dd className="mono" data-testid="match-code">
          {m.completion_code ?? '—'}
        </dd>
        <dt>Started · last activity · completed</dt>
        <dd>
          {when(m.created_at)} · {when(m.updated_at)} · {when(m.completed_at)}
        </dd>
      </dl>
      <Actions id={m.session_id} flag={m.flag} status={m.status} onWithdrawn={onWithdrawn} onDone={onChanged} />
    </section>
  );
}

export function FindView({ q, go }: { q: string; go: (hash: string) => void }) {
  const [text, setText] = useState(q);
  const [matches, setMatches] = useState<LookupMatch[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  /** What the last withdrawal here deleted: its match is gone from the list, so it is said above it. */
  const [report, setReport] = useState<string | null>(null);
  useEffect(() => {
    setText(q);
    if (!q.trim()) return setMatches(null);
    adminApi.lookup(q).then(
      (r) => {
        setMatches(r.matches);
        setError(null);
      },
      (err: Error) => setError(err.message),
    );
  }, [q, version]);
  return (
    <div data-testid="find-view">
      <form
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim() === q) setVersion((v) => v + 1);
          else go(`#/find/${encodeURIComponent(text.trim())}`);
        }}
      >
        <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="Prolific PID, SONA id, completion code or session id" size={48} data-testid="find-input" autoFocus />
        <button type="submit" className="primary" data-testid="find-submit">
          Find
        </button>
        <span className="muted">A participant who asks for their data to be deleted: find them here, then withdraw.</span>
      </form>
      {error && <p className="error">{error}</p>}
      {report && (
        <p className="message" data-testid="withdrawal-report">
          {report}
        </p>
      )}
      {matches !== null && matches.length === 0 && (
        <p className="muted" data-testid="find-none">
          No session matches “{q}”.
        </p>
      )}
      {matches?.map((m) => (
        <Match key={m.session_id} m={m} onChanged={() => setVersion((v) => v + 1)} onWithdrawn={(r) => setReport(r)} />
      ))}
    </div>
  );
}
