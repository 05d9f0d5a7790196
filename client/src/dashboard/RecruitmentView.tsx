// Recruitment: open or close it, the target of completed participants, and the drop-out funnel (refreshed every few seconds).
import { useCallback, useEffect, useState } from 'react';
import type { RecruitmentState } from '../../../shared/schema/admin.ts';
import type { Funnel } from '../../../shared/study/funnel.ts';
import { adminApi, exportUrl } from './adminApi.ts';
import { recruitmentChange } from './notices.ts';

const REFRESH_MS = 3_000;

function stepName(r: Funnel['steps'][number]): string {
  return r.position ? `${r.kind} ${r.position}` : r.kind;
}

function Controls({ state, onChange }: { state: RecruitmentState; onChange: (s: RecruitmentState) => void }) {
  const [target, setTarget] = useState(state.target_completed === null ? '' : String(state.target_completed));
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => setTarget(state.target_completed === null ? '' : String(state.target_completed)), [state.target_completed]);
  const run = async (update: Parameters<typeof adminApi.setRecruitment>[0]) => {
    try {
      const after = await adminApi.setRecruitment(update);
      onChange(after);
      setMessage(recruitmentChange(state, after));
    } catch (err) {
      setMessage(`not saved: ${(err as Error).message}`);
    }
  };
  const progress = state.target_completed ? Math.min(1, state.completed / state.target_completed) : null;
  return (
    <section className="panel recruitment" data-testid="recruitment">
      <h3>Recruitment</h3>
      <p className={`recruitment-state ${state.accepting ? 'open' : 'closed'}`} data-testid="recruitment-state">
        {state.accepting ? 'Open: new participants can start.' : state.reason === 'target_reached' ? 'Target reached: new visitors see the closed page.' : 'Closed: new visitors see the closed page.'}
        {' '}Participants who already started can still finish.
      </p>
      <div className="row">
        {state.open ? (
          <button className="danger" onClick={() => run({ open: false })} data-testid="recruitment-close">
            Close recruitment
          </button>
        ) : (
          <button className="primary" onClick={() => run({ open: true })} data-testid="recruitment-open">
            Open recruitment
          </button>
        )}
      </div>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void run({ target_completed: target.trim() === '' ? null : Number(target) });
        }}
      >
        <label>
          Target of completed participants{' '}
          <input type="number" min={1} value={target} onChange={(e) => setTarget(e.target.value)} placeholder="none" data-testid="recruitment-target" style={{ width: '7em' }} />
        </label>
        <button type="submit" data-testid="recruitment-target-save">
          Save target
        </button>
      </form>
      <p>
        <b data-testid="recruitment-completed">{state.completed}</b> completed{state.target_completed ? ` of ${state.target_completed}` : ''} (sessions marked pilot, test or
        excluded do not count)
      </p>
      {progress !== null && (
        <div className="progress wide">
          <div style={{ width: `${Math.round(progress * 100)}%` }} />
        </div>
      )}
      <details>
        <summary>What a new visitor sees while closed</summary>
        <p>
          <b>{state.closed_title}</b>
        </p>
        <p>{state.closed_message}</p>
        <p className="muted">Set in the study config under recruitment.closed_title / closed_message.</p>
      </details>
      {message && (
        <p className="message" data-testid="recruitment-message">
          {message}
        </p>
      )}
    </section>
  );
}

function FunnelTable({ funnel }: { funnel: Funnel }) {
  const max = Math.max(1, funnel.sessions);
  return (
    <section className="panel" data-testid="funnel">
      <h3>Drop-out funnel</h3>
      <div className="stats">
        <div className="stat">
          <b>{funnel.sessions}</b> sessions
        </div>
        <div className="stat">
          <b data-testid="funnel-complete">{funnel.complete}</b> complete
        </div>
        <div className="stat">
          <b>{funnel.active}</b> active
        </div>
        <div className="stat">
          <b>{funnel.abandoned}</b> abandoned
        </div>
        <div className="stat">
          <b data-testid="funnel-declined">{funnel.declined}</b> declined consent
        </div>
        <div className="stat">
          <b data-testid="funnel-screened-out">{funnel.screened_out}</b> screened out
        </div>
      </div>
      <table className="plain funnel">
        <thead>
          <tr>
            <th>Step</th>
            <th>Reached</th>
            <th />
            <th>On it now</th>
            <th>Left here</th>
            <th>Declined</th>
            <th>Screened out</th>
            <th>Median time</th>
          </tr>
        </thead>
        <tbody>
          {funnel.steps.map((r) => (
            <tr key={r.step} data-testid={`funnel-step-${r.step}`}>
              <td>
                {r.step} · {stepName(r)} <span className="muted mono">{r.phase}</span>
              </td>
              <td data-testid={`funnel-reached-${r.step}`}>{r.reached}</td>
              <td>
                <div className="progress">
                  <div style={{ width: `${Math.round((r.reached / max) * 100)}%` }} />
                </div>
              </td>
              <td>{r.here_now || ''}</td>
              <td>{r.left_here || ''}</td>
              <td>{r.declined_here || ''}</td>
              <td>{r.screened_out_here || ''}</td>
              <td>{r.median_time_s === null ? '—' : `${r.median_time_s.toFixed(1)} s`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function RecruitmentView() {
  const [state, setState] = useState<RecruitmentState | null>(null);
  const [funnel, setFunnel] = useState<Funnel | null>(null);
  const [includeFlagged, setIncludeFlagged] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      const [r, f] = await Promise.all([adminApi.recruitment(), adminApi.funnel(includeFlagged)]);
      setState(r);
      setFunnel(f);
      setError(null);
    } catch (err) {
      setError((err as Error).message);
    }
  }, [includeFlagged]);
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);
  return (
    <div data-testid="recruitment-view">
      {error && <p className="error">{error}</p>}
      {state ? <Controls state={state} onChange={setState} /> : <p className="muted">Loading…</p>}
      <div className="toolbar">
        <label className="check">
          <input type="checkbox" checked={includeFlagged} onChange={(e) => setIncludeFlagged(e.target.checked)} /> include sessions marked pilot, test or excluded
        </label>
        <span className="spacer" />
        <a className="button" href={exportUrl('funnel', includeFlagged)} download="funnel.csv" data-testid="funnel-csv">
          ⬇ funnel.csv
        </a>
      </div>
      {funnel && <FunnelTable funnel={funnel} />}
    </div>
  );
}
