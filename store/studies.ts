// The server's registry of studies and experimenters (many studies on one server; its statements: store/registryDb.ts): studies (slug, config, versions by
// config hash, archived), accounts (a name, a scrypt password hash, an admin flag), memberships (owner | viewer), account
// logins and an audit of what changed. It lives where the server's data does:
// - embedded: one SQLite file, `studies.sqlite` in the data directory, beside the first study's own files; WAL with a
//   busy timeout, so the `nonolab study …` / `nonolab user …` commands can change it while the server runs;
// - PostgreSQL (NONOLAB_DATABASE_URL): the same tables in the schema `nonolab_registry` of the database, so every
//   server process on it sees the same studies, accounts and logins.
// The server reads it on every request that needs it. One class (StudyRegistry) holds the rules (checks, versions,
// audit rows), written once over a small interface of statements (RegistryDb), with one implementation per database.
// Each study's own data (sessions, pool, logs) stays in its own store: embedded, the first study's in the data
// directory as before and the others' in studies/<slug>/; on PostgreSQL, the first study's in the schema `public` as
// before and each other's in a schema of its own, `study_<slug>` (schemaOf).
import { join } from 'node:path';
import { openPgRegistryDb, openSqliteRegistryDb, type RegistryDb } from './registryDb.ts';
/** A study's slug: its links are /s/<slug>/ and its admin API /api/admin/studies/<slug>/. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;
export const SLUG_RULE = 'a slug is 1 to 40 lowercase letters, digits and -, starting with a letter or digit';
/** An account name. */
export const ACCOUNT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
export const ACCOUNT_RULE = 'an account name is 1 to 64 letters, digits, ., _, @ and -, starting with a letter or digit';
/** The account today's single experimenter password becomes (its password stays where it was: server/admin/auth.ts). */
export const ADMIN_ACCOUNT = 'admin';

export type Role = 'owner' | 'viewer';
export const ROLES: readonly Role[] = ['owner', 'viewer'];

export interface StudyRecord {
  slug: string;
  /** The study config's id (config.id). */
  study_id: string;
  title: string;
  /** The current version's config hash. */
  config_hash: string;
  /** The current version's config JSON (the first study's is the file NONOLAB_CONFIG names, recorded at each start). */
  config_json: string;
  /** The first study: today's `/`, `/api/…` and `/api/admin/…`, data in the data directory itself. */
  first: boolean;
  archived: boolean;
  created_at: number;
}

export interface StudyVersion {
  slug: string;
  version: number;
  config_hash: string;
  created_at: number;
}

export interface AccountRecord {
  name: string;
  /** `scrypt$…`; null for the admin account upgraded from the single password (that one stays in the first study's store). */
  password_hash: string | null;
  admin: boolean;
  created_at: number;
}

export interface Membership {
  slug: string;
  account: string;
  role: Role;
}

export interface RegistryAudit {
  at: number;
  account: string | null;
  action: string;
  detail: string;
}

/** Bad input to the registry (an unknown study, a taken slug…): the message says which. Nothing was changed. */
export class RegistryError extends Error {}

/**
 * Where a study's own data lives on PostgreSQL: the first study's in the database's default schema (`public`, where a
 * single-study server always kept it: undefined here), each other study's in its own schema `study_<slug>` (the slug's
 * `-` as `_`; a slug has no `_`, so two slugs never share a schema).
 */
export function schemaOf(study: Pick<StudyRecord, 'slug' | 'first'>): string | undefined {
  return study.first ? undefined : `study_${study.slug.replace(/-/g, '_')}`;
}

type StudyRow = Omit<StudyRecord, 'first' | 'archived'> & { first: number; archived: number };
const decodeStudy = (r: StudyRow): StudyRecord => ({ ...r, first: r.first === 1, archived: r.archived === 1 });
type AccountRow = Omit<AccountRecord, 'admin'> & { admin: number };
const decodeAccount = (r: AccountRow): AccountRecord => ({ ...r, admin: r.admin === 1 });

export class StudyRegistry {
  private constructor(readonly db: RegistryDb) {}

  /** The embedded registry of the data directory (made if absent). */
  static open(dataDir: string): StudyRegistry {
    return new StudyRegistry(openSqliteRegistryDb(dataDir));
  }

  /** The registry in a PostgreSQL database (its schema and tables made if absent, by whichever process comes first). */
  static async openPostgres(url: string): Promise<StudyRegistry> {
    return new StudyRegistry(await openPgRegistryDb(url));
  }

  /** The registry a server on this data directory and (if given) database uses. */
  static async openFor(opts: { dataDir: string; databaseUrl?: string }): Promise<StudyRegistry> {
    return opts.databaseUrl ? StudyRegistry.openPostgres(opts.databaseUrl) : StudyRegistry.open(opts.dataDir);
  }

  get kind(): 'sqlite' | 'postgres' {
    return this.db.kind;
  }

  close(): Promise<void> {
    return this.db.close();
  }

  /** `fn` on this registry inside one transaction: all of its changes or none. */
  transaction<T>(fn: (registry: StudyRegistry) => Promise<T>): Promise<T> {
    return this.db.transaction((db) => fn(db === this.db ? this : new StudyRegistry(db)));
  }

  /** Where a study's own data lives: the data directory itself for the first study, studies/<slug>/ for the others. */
  static dataDirOf(dataDir: string, study: Pick<StudyRecord, 'slug' | 'first'>): string {
    return study.first ? dataDir : join(dataDir, 'studies', study.slug);
  }

  private async one<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    return (await this.db.all<T>(sql, params))[0];
  }

  // Studies ---------------------------------------------------------------------------------------------------------

  async studies(): Promise<StudyRecord[]> {
    return (await this.db.all<StudyRow>('SELECT * FROM studies ORDER BY first DESC, created_at, slug')).map(decodeStudy);
  }

  async study(slug: string): Promise<StudyRecord | undefined> {
    const row = await this.one<StudyRow>('SELECT * FROM studies WHERE slug = ?', [slug]);
    return row && decodeStudy(row);
  }

  async firstStudy(): Promise<StudyRecord | undefined> {
    const row = await this.one<StudyRow>('SELECT * FROM studies WHERE first = 1');
    return row && decodeStudy(row);
  }

  /** A new study at version 1. Throws RegistryError (nothing added) for a bad or taken slug. */
  async addStudy(s: { slug: string; study_id: string; title: string; config_hash: string; config_json: string; first?: boolean; now: number; by: string | null }): Promise<StudyRecord> {
    if (!SLUG_PATTERN.test(s.slug)) throw new RegistryError(`slug '${s.slug}': ${SLUG_RULE}`);
    const taken = () => new RegistryError(`slug '${s.slug}': a study with this slug exists already`);
    try {
      return await this.transaction(async (r) => {
        if (await r.study(s.slug)) throw taken();
        await r.db.run('INSERT INTO studies (slug, study_id, title, config_hash, config_json, first, archived, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?)', [
          s.slug,
          s.study_id,
          s.title,
          s.config_hash,
          s.config_json,
          s.first ? 1 : 0,
          s.now,
        ]);
        await r.db.run('INSERT INTO study_versions (slug, version, config_hash, config_json, created_at) VALUES (?, 1, ?, ?, ?)', [s.slug, s.config_hash, s.config_json, s.now]);
        await r.auditNow(s.now, s.by, 'study_add', `${s.slug} (config ${s.config_hash})`);
        return (await r.study(s.slug))!;
      });
    } catch (err) {
      if (this.db.isUniqueViolation(err)) throw s.first && (await this.firstStudy()) ? new RegistryError('there is a first study already') : taken();
      throw err;
    }
  }

  /**
   * Make a config the study's current version: a config hash not seen before is a new version (sessions keep the
   * hash they started with); one seen before becomes current again. Returns the version number. (Two processes
   * starting with the same new config at once: the second's insert meets the first's row, and it tries again.)
   */
  async setVersion(slug: string, v: { study_id: string; title: string; config_hash: string; config_json: string; now: number; by: string | null }): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.transaction(async (r) => {
          if (!(await r.study(slug))) throw new RegistryError(`no study '${slug}'`);
          const known = await r.one<{ version: number }>('SELECT version FROM study_versions WHERE slug = ? AND config_hash = ?', [slug, v.config_hash]);
          let version = known?.version;
          if (version === undefined) {
            version = ((await r.one<{ v: number | null }>('SELECT MAX(version) AS v FROM study_versions WHERE slug = ?', [slug]))?.v ?? 0) + 1;
            await r.db.run('INSERT INTO study_versions (slug, version, config_hash, config_json, created_at) VALUES (?, ?, ?, ?, ?)', [slug, version, v.config_hash, v.config_json, v.now]);
            await r.auditNow(v.now, v.by, 'study_version', `${slug} version ${version} (config ${v.config_hash})`);
          }
          await r.db.run('UPDATE studies SET study_id = ?, title = ?, config_hash = ?, config_json = ? WHERE slug = ?', [v.study_id, v.title, v.config_hash, v.config_json, slug]);
          return version;
        });
      } catch (err) {
        if (attempt >= 5 || !this.db.isUniqueViolation(err)) throw err;
      }
    }
  }

  versions(slug: string): Promise<StudyVersion[]> {
    return this.db.all<StudyVersion>('SELECT slug, version, config_hash, created_at FROM study_versions WHERE slug = ? ORDER BY version', [slug]);
  }

  async setArchived(slug: string, archived: boolean, now: number, by: string | null): Promise<void> {
    await this.transaction(async (r) => {
      if (!(await r.study(slug))) throw new RegistryError(`no study '${slug}'`);
      await r.db.run('UPDATE studies SET archived = ? WHERE slug = ?', [archived ? 1 : 0, slug]);
      await r.auditNow(now, by, archived ? 'study_archive' : 'study_unarchive', slug);
    });
  }

  /** The study's registry rows (versions, memberships with it); its data (directory or schema) is the caller's to remove. */
  async deleteStudy(slug: string, now: number, by: string | null): Promise<void> {
    await this.transaction(async (r) => {
      const s = await r.study(slug);
      if (!s) throw new RegistryError(`no study '${slug}'`);
      if (s.first) throw new RegistryError(`study '${slug}' is the first study (served at /): it cannot be deleted`);
      await r.db.run('DELETE FROM studies WHERE slug = ?', [slug]);
      await r.auditNow(now, by, 'study_delete', `${slug} (config ${s.config_hash})`);
    });
  }

  // Accounts --------------------------------------------------------------------------------------------------------

  async accounts(): Promise<AccountRecord[]> {
    return (await this.db.all<AccountRow>('SELECT * FROM accounts ORDER BY name')).map(decodeAccount);
  }

  async account(name: string): Promise<AccountRecord | undefined> {
    const row = await this.one<AccountRow>('SELECT * FROM accounts WHERE name = ?', [name]);
    return row && decodeAccount(row);
  }

  async addAccount(a: { name: string; password_hash: string | null; admin: boolean; now: number; by: string | null }): Promise<AccountRecord> {
    if (!ACCOUNT_PATTERN.test(a.name)) throw new RegistryError(`account '${a.name}': ${ACCOUNT_RULE}`);
    const taken = () => new RegistryError(`account '${a.name}' exists already`);
    try {
      return await this.transaction(async (r) => {
        if (await r.account(a.name)) throw taken();
        await r.db.run('INSERT INTO accounts (name, password_hash, admin, created_at) VALUES (?, ?, ?, ?)', [a.name, a.password_hash, a.admin ? 1 : 0, a.now]);
        await r.auditNow(a.now, a.by, 'account_add', `${a.name}${a.admin ? ' (admin)' : ''}`);
        return (await r.account(a.name))!;
      });
    } catch (err) {
      if (this.db.isUniqueViolation(err)) throw taken();
      throw err;
    }
  }

  /** A new password hash for an account: every login of it ends. */
  async setAccountPassword(name: string, hash: string, now: number, by: string | null): Promise<void> {
    await this.transaction(async (r) => {
      if (!(await r.account(name))) throw new RegistryError(`no account '${name}'`);
      await r.db.run('UPDATE accounts SET password_hash = ? WHERE name = ?', [hash, name]);
      await r.db.run('DELETE FROM account_logins WHERE account = ?', [name]);
      await r.auditNow(now, by, 'account_password', name);
    });
  }

  // Memberships -----------------------------------------------------------------------------------------------------

  members(slug: string): Promise<Membership[]> {
    return this.db.all<Membership>('SELECT slug, account, role FROM memberships WHERE slug = ? ORDER BY account', [slug]);
  }

  membershipsOf(account: string): Promise<Membership[]> {
    return this.db.all<Membership>('SELECT slug, account, role FROM memberships WHERE account = ? ORDER BY slug', [account]);
  }

  async roleOf(slug: string, account: string): Promise<Role | undefined> {
    return (await this.one<{ role: Role }>('SELECT role FROM memberships WHERE slug = ? AND account = ?', [slug, account]))?.role;
  }

  /** Give an account a role in a study (null: no longer a member). */
  async setMember(slug: string, account: string, role: Role | null, now: number, by: string | null): Promise<void> {
    if (role !== null && !ROLES.includes(role)) throw new RegistryError(`role '${role}': expected owner or viewer`);
    await this.transaction(async (r) => {
      if (!(await r.study(slug))) throw new RegistryError(`no study '${slug}'`);
      if (!(await r.account(account))) throw new RegistryError(`no account '${account}' (add it first: nonolab user add ${account})`);
      if (role === null) await r.db.run('DELETE FROM memberships WHERE slug = ? AND account = ?', [slug, account]);
      else await r.db.run('INSERT INTO memberships (slug, account, role) VALUES (?, ?, ?) ON CONFLICT (slug, account) DO UPDATE SET role = excluded.role', [slug, account, role]);
      await r.auditNow(now, by, 'member', `${slug}: ${account} ${role ?? 'removed'}`);
    });
  }

  // Logins (accounts other than the upgraded admin: its logins stay in the first study's store) ----------------------

  insertLogin(tokenHash: string, account: string, passwordHash: string, createdAt: number, expiresAt: number): Promise<boolean> {
    return this.transaction(async (r) => {
      await r.db.run('DELETE FROM account_logins WHERE expires_at <= ?', [createdAt]);
      // Not stored when the password changed since it was checked: the login must not outlive it.
      if ((await r.account(account))?.password_hash !== passwordHash) return false;
      await r.db.run('INSERT INTO account_logins (token_hash, account, password_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)', [tokenHash, account, passwordHash, createdAt, expiresAt]);
      return true;
    });
  }

  loginOf(tokenHash: string): Promise<{ account: string; expires_at: number } | undefined> {
    return this.one('SELECT account, expires_at FROM account_logins WHERE token_hash = ?', [tokenHash]);
  }

  deleteLogin(tokenHash: string): Promise<void> {
    return this.db.run('DELETE FROM account_logins WHERE token_hash = ?', [tokenHash]);
  }

  // Audit -----------------------------------------------------------------------------------------------------------

  audit(at: number, account: string | null, action: string, detail: string): Promise<void> {
    return this.auditNow(at, account, action, detail);
  }

  auditRows(): Promise<RegistryAudit[]> {
    return this.db.all<RegistryAudit>('SELECT at, account, action, detail FROM registry_audit ORDER BY id');
  }

  private auditNow(at: number, account: string | null, action: string, detail: string): Promise<void> {
    return this.db.run('INSERT INTO registry_audit (at, account, action, detail) VALUES (?, ?, ?, ?)', [at, account, action, detail]);
  }
}
