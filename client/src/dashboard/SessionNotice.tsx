// The page of a session that is not there: withdrawn (with what was deleted, when this dashboard did it), unknown, or loading.
import type { SessionPageNotice } from './notices.ts';

export function SessionNotice({ notice, report }: { notice: SessionPageNotice; report: string | null }) {
  if (notice.kind === 'loading') return <p className="muted">{notice.text}</p>;
  return (
    <section className="panel" data-testid={notice.kind === 'withdrawn' ? 'session-gone' : 'session-unknown'}>
      {report ? (
        <p className="message" data-testid="withdrawal-report">
          {report}
        </p>
      ) : (
        <p>{notice.text}</p>
      )}
      <a href="#/">Back to live sessions</a>
    </section>
  );
}
