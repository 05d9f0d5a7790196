// The experimenter dashboard (lazy-loaded under /dashboard): login, then live sessions, a session, replays, pool, recruitment and funnel, find a participant, study, exports.
import { useEffect, useState } from 'react';
import { adminApi, exportUrl, setUnauthorizedHandler, studySlug, type ExportList, type Me, type StudyInfo } from './adminApi.ts';
import { StudiesView } from './StudiesView.tsx';
import { connectLive, loadOverview, useLive } from './liveStore.ts';
import { LiveTable } from './LiveTable.tsx';
import { OverviewView } from './Overview.tsx';
import { PoolView } from './PoolView.tsx';
import { RecruitmentView } from './RecruitmentView.tsx';
import { FindView } from './FindView.tsx';
import { Replay } from './Replay.tsx';
import { SessionView } from './SessionView.tsx';
import { parseRoute, type Route } from './routes.ts';
import './dashboard.css';

function useHashRoute(): [Route, (hash: string) => void] {
  const [hash, setHash] = useState(() => window.location.hash);
  useEffect(() => {
    const on = () => setHash(window.location.hash);
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return [parseRoute(hash), (h: string) => (window.location.hash = h)];
}

function Login({ onDone }: { onDone: () => void }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <main className="dash login">
      <h1>nonolab · experimenter</h1>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          try {
            await adminApi.login(password, name.trim() || undefined);
            onDone();
          } catch (err) {
            setError((err as Error).message);
          } finally {
            setBusy(false);
          }
        }}
      >
        <label>
          Name <span className="muted">(blank: admin)</span>
          <input autoComplete="username" value={name} onChange={(e) => setName(e.target.value)} data-testid="login-name" />
        </label>
        <label>
          Password
          <input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} data-testid="login-password" autoFocus />
        </label>
        <button className="primary" type="submit" disabled={busy || !password} data-testid="login-submit">
          Log in
        </button>
        {error && (
          <p className="error" data-testid="login-error">
            {error}
          </p>
        )}
      </form>
      <p className="muted">The admin password was printed when the server first started, or set with NONOLAB_ADMIN_PASSWORD; other accounts are made with <code>nonolab user add</code> or by an admin.</p>
    </main>
  );
}

function Exports() {
  const [list, setList] = useState<ExportList['exports'] | null>(null);
  const [includeFlagged, setIncludeFlagged] = useState(false);
  useEffect(() => {
    adminApi.exports().then((r) => setList(r.exports), () => setList([]));
  }, []);
  if (!list) return <p className="muted">Loading…</p>;
  return (
    <section data-testid="exports">
      <p className="muted">Exports stream from the server: a large study downloads without waiting for the whole file to be built.</p>
      <label className="check">
        <input type="checkbox" checked={includeFlagged} onChange={(e) => setIncludeFlagged(e.target.checked)} /> include sessions marked pilot, test or excluded
      </label>
      <ul className="exports">
        {list.map((x) => (
          <li key={x.id}>
            <a className="button" href={exportUrl(x.id, includeFlagged)} download={x.filename} data-testid={`export-${x.id}`}>
              ⬇ {x.label}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Which study the dashboard shows, when the account has more than one: another one opens in its own address. */
function StudyPicker({ studies }: { studies: StudyInfo[] }) {
  if (studies.length < 2) return null;
  const current = studies.find((s) => (studySlug ? s.slug === studySlug : s.first))?.slug ?? '';
  return (
    <select
      value={current}
      data-testid="study-picker"
      aria-label="study"
      onChange={(e) => {
        const s = studies.find((x) => x.slug === e.target.value);
        if (s) location.assign(s.first ? '/dashboard' : `/dashboard?study=${encodeURIComponent(s.slug)}`);
      }}
    >
      {current === '' && <option value="">(not a member of this study)</option>}
      {studies.map((s) => (
        <option key={s.slug} value={s.slug}>
          {s.title} ({s.slug})
        </option>
      ))}
    </select>
  );
}

function Shell({ onLogout }: { onLogout: () => void }) {
  const [route, go] = useHashRoute();
  const [me, setMe] = useState<Me | null>(null);
  const [studies, setStudies] = useState<StudyInfo[]>([]);
  useEffect(() => {
    adminApi.me().then(setMe, () => {});
    adminApi.studies().then((r) => {
      setStudies(r.studies);
      // Not a member of the first study: show the first study this account has.
      if (!studySlug && r.studies.length > 0 && !r.studies.some((s) => s.first)) location.replace(`/dashboard?study=${encodeURIComponent(r.studies[0].slug)}`);
    }, () => {});
  }, []);
  const overview = useLive((s) => s.overview);
  useEffect(() => {
    void loadOverview();
    return connectLive();
  }, []);
  const nav = (page: Route['page'], label: string, hash: string) => (
    <a href={hash} className={route.page === page || (page === 'live' && (route.page === 'session' || route.page === 'replay')) ? 'on' : ''} data-testid={`nav-${page}`}>
      {label}
    </a>
  );
  return (
    <main className="dash">
      <header className="dash-header">
        <h1>
          nonolab <span className="muted">· {overview?.study.title ?? 'dashboard'}</span>
        </h1>
        <nav>
          {nav('live', 'Live', '#/')}
          {nav('pool', 'Pool', '#/pool')}
          {nav('recruitment', 'Recruitment', '#/recruitment')}
          {nav('find', 'Find', '#/find')}
          {nav('overview', 'Study', '#/overview')}
          {nav('exports', 'Exports', '#/exports')}
          {nav('studies', 'Studies', '#/studies')}
        </nav>
        <StudyPicker studies={studies} />
        <button
          onClick={async () => {
            await adminApi.logout().catch(() => {});
            onLogout();
          }}
          data-testid="logout"
        >
          Log out
        </button>
      </header>
      {route.page === 'live' && <LiveTable open={(id) => go(`#/session/${id}`)} />}
      {route.page === 'session' && <SessionView key={route.id} id={route.id} go={go} />}
      {route.page === 'replay' && <Replay key={`${route.id}/${route.step}`} id={route.id} step={route.step} />}
      {route.page === 'pool' && <PoolView />}
      {route.page === 'recruitment' && <RecruitmentView />}
      {route.page === 'find' && <FindView q={route.q} go={go} />}
      {route.page === 'overview' && <OverviewView />}
      {route.page === 'exports' && <Exports />}
      {route.page === 'studies' && <StudiesView me={me} />}
    </main>
  );
}

export default function Dashboard() {
  const [auth, setAuth] = useState<'checking' | 'out' | 'in'>('checking');
  useEffect(() => {
    setUnauthorizedHandler(() => setAuth('out'));
    adminApi.me().then(
      () => setAuth('in'),
      () => setAuth('out'),
    );
  }, []);
  if (auth === 'checking') return <main className="dash muted">Checking the login…</main>;
  if (auth === 'out') return <Login onDone={() => setAuth('in')} />;
  return <Shell onLogout={() => setAuth('out')} />;
}
