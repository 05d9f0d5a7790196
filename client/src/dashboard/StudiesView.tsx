// The Studies page: the studies this account is a member of (with their participant links), a new study from a config
// file, the members of the study shown (its owners manage them), and the accounts (an admin's).
import { useEffect, useState } from 'react';
import { AdminApiError, adminApi, studySlug, type Me, type StudyInfo } from './adminApi.ts';

const absolute = (path: string) => `${location.origin}${path}`;
const dashboardOf = (s: StudyInfo) => (s.first ? '/dashboard' : `/dashboard?study=${encodeURIComponent(s.slug)}`);

function Problem({ error }: { error: unknown }) {
  if (!error) return null;
  const issues = error instanceof AdminApiError ? error.issues : [];
  return (
    <div className="error" data-testid="studies-error">
      <p>{(error as Error).message}</p>
      {issues.length > 0 && (
        <ul>
          {issues.map((i) => (
            <li key={i}>{i}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function AddStudy({ added }: { added: () => void }) {
  const [slug, setSlug] = useState('');
  const [config, setConfig] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  return (
    <form
      data-testid="add-study"
      onSubmit={async (e) => {
        e.preventDefault();
        setError(null);
        try {
          await adminApi.addStudy(slug, config ?? '');
          setSlug('');
          added();
        } catch (err) {
          setError(err);
        }
      }}
    >
      <h3>Add a study</h3>
      <label>
        Slug (its link is /s/slug/)
        <input value={slug} onChange={(e) => setSlug(e.target.value)} pattern="[a-z0-9][a-z0-9-]{0,39}" data-testid="add-study-slug" />
      </label>
      <label>
        Study config (JSON, as <code>nonolab validate-config</code> checks it)
        <input type="file" accept=".json,application/json" data-testid="add-study-config" onChange={async (e) => setConfig((await e.target.files?.[0]?.text()) ?? null)} />
      </label>
      <button className="primary" type="submit" disabled={!slug || config === null}>
        Add
      </button>
      <Problem error={error} />
    </form>
  );
}

function Members({ slug }: { slug: string }) {
  const [members, setMembers] = useState<{ name: string; role: string }[] | null>(null);
  const [name, setName] = useState('');
  const [role, setRole] = useState<'owner' | 'viewer'>('viewer');
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    adminApi.members(slug).then((r) => setMembers(r.members), setError);
  }, [slug]);
  const change = async (who: string, to: 'owner' | 'viewer' | null) => {
    setError(null);
    try {
      setMembers((await adminApi.setMember(slug, who, to)).members);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section data-testid="members">
      <h3>Members of {slug}</h3>
      <ul>
        {(members ?? []).map((m) => (
          <li key={m.name}>
            {m.name}: {m.role} <button onClick={() => change(m.name, null)}>remove</button>
          </li>
        ))}
      </ul>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void change(name, role);
        }}
      >
        <input placeholder="account name" value={name} onChange={(e) => setName(e.target.value)} data-testid="member-name" />
        <select value={role} onChange={(e) => setRole(e.target.value as 'owner' | 'viewer')} data-testid="member-role">
          <option value="viewer">viewer (watch, replay, export)</option>
          <option value="owner">owner (everything)</option>
        </select>
        <button type="submit" disabled={!name}>
          Add member
        </button>
      </form>
      <Problem error={error} />
    </section>
  );
}

function Accounts() {
  const [accounts, setAccounts] = useState<{ name: string; admin: boolean; studies: { slug: string; role: string }[] }[] | null>(null);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [admin, setAdmin] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const load = () => adminApi.accounts().then((r) => setAccounts(r.accounts), setError);
  useEffect(() => {
    void load();
  }, []);
  return (
    <section data-testid="accounts">
      <h3>Accounts</h3>
      <ul>
        {(accounts ?? []).map((a) => (
          <li key={a.name}>
            {a.name}
            {a.admin ? ' (admin)' : ''}: {a.studies.map((s) => `${s.slug} ${s.role}`).join(', ') || 'no study'}
          </li>
        ))}
      </ul>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setError(null);
          try {
            await adminApi.addAccount(name, password, admin);
            setName('');
            setPassword('');
            void load();
          } catch (err) {
            setError(err);
          }
        }}
      >
        <input placeholder="name" value={name} onChange={(e) => setName(e.target.value)} data-testid="account-name" />
        <input type="password" placeholder="password (8 characters or more)" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} data-testid="account-password" />
        <label className="check">
          <input type="checkbox" checked={admin} onChange={(e) => setAdmin(e.target.checked)} /> admin
        </label>
        <button type="submit" disabled={!name || !password}>
          Add account
        </button>
      </form>
      <Problem error={error} />
    </section>
  );
}

export function StudiesView({ me }: { me: Me | null }) {
  const [studies, setStudies] = useState<StudyInfo[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = () => adminApi.studies().then((r) => setStudies(r.studies), setError);
  useEffect(() => {
    void load();
  }, []);
  const shown = studies?.find((s) => (studySlug ? s.slug === studySlug : s.first));
  return (
    <section data-testid="studies">
      <table>
        <thead>
          <tr>
            <th>Study</th>
            <th>Your role</th>
            <th>Version</th>
            <th>Links</th>
          </tr>
        </thead>
        <tbody>
          {(studies ?? []).map((s) => (
            <tr key={s.slug} data-testid={`study-${s.slug}`}>
              <td>
                <a href={dashboardOf(s)}>{s.title}</a> <span className="muted">({s.slug}{s.archived ? ', archived' : ''})</span>
              </td>
              <td>{s.role}</td>
              <td>
                {s.version ?? '–'} <code>{s.config_hash}</code>
              </td>
              <td>
                <a href={s.links.participant}>{absolute(s.links.participant)}</a>
                <br />
                kiosk: <code>{absolute(s.links.kiosk)}&amp;label=…</code>
                <br />
                Prolific: <code>{absolute(s.links.prolific)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Problem error={error} />
      <AddStudy added={() => void load()} />
      {shown?.role === 'owner' && <Members slug={shown.slug} />}
      {me?.account?.admin && <Accounts />}
    </section>
  );
}
