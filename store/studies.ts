// The server's registry of studies and experimenters (many studies on one server): studies (slug, config, versions by
// config hash, archived), accounts (a name, a scrypt password hash, an admin flag), memberships (owner | viewer), account
// logins and an audit of what changed. One SQLite file, `studies.sqlite` in the data directory, beside the first
// study's own files; WAL with a busy timeout, so the `nonolab study …` / `nonolab user …` commands can change it while
// the server runs (the server reads it on every request that needs it). Each study's own data (sessions, pool, logs)
// stays in its own store: the first study's in the data directory as before, the others' in studies/<slug>/.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { openDurableSqlite } from './sqlite.ts';
import { join } from 'node:path';

export const REGISTRY_FILE = 'studies.sqlite';
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

type StudyRow = Omit<StudyRecord, 'first' | 'archived'> & { first: number; archived: number };
const decodeStudy = (r: StudyRow): StudyRecord => ({ ...r, first: r.first === 1, archived: r.archived === 1 });
type AccountRow = Omit<AccountRecord, 'admin'> & { admin: number };
const decodeAccount = (r: AccountRow): AccountRecord => ({ ...r, admin: r.admin === 1 });

export class StudyRegistry {
  readonly db: Database.Database;

  private constructor(path: string) {
    this.db = openDurableSqlite(path, { timeout: 5_000, foreignKeys: true });
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS studies (
        slug TEXT PRIMARY KEY,
        study_id TEXT NOT NULL,
        title TEXT NOT NULL,
        config_hash TEXT NOT NULL,
        config_json TEXT NOT NULL,
        first INTEGER NOT NULL DEFAULT 0,
        archived INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX IF NOT EXISTS studies_first ON studies(first) WHERE first = 1;
      CREATE TABLE IF NOT EXISTS study_versions (
        slug TEXT NOT NULL REFERENCES studies(slug) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        config_hash TEXT NOT NULL,
        config_json TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (slug, version),
        UNIQUE (slug, config_hash)
      );
      CREATE TABLE IF NOT EXISTS accounts (
        name TEXT PRIMARY KEY,
        password_hash TEXT,
        admin INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS memberships (
        slug TEXT NOT NULL REFERENCES studies(slug) ON DELETE CASCADE,
        account TEXT NOT NULL REFERENCES accounts(name) ON DELETE CASCADE,
        role TEXT NOT NULL CHECK (role IN ('owner', 'viewer')),
        PRIMARY KEY (slug, account)
      );
      CREATE TABLE IF NOT EXISTS account_logins (
        token_hash TEXT PRIMARY KEY,
        account TEXT NOT NULL REFERENCES accounts(name) ON DELETE CASCADE,
        password_hash TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS registry_audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        account TEXT,
        action TEXT NOT NULL,
        detail TEXT NOT NULL
      );
    `);
  }

  /** The registry of the data directory (made if absent). */
  static open(dataDir: string): StudyRegistry {
    mkdirSync(dataDir, { recursive: true });
    return new StudyRegistry(join(dataDir, REGISTRY_FILE));
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** Where a study's own data lives: the data directory itself for the first study, studies/<slug>/ for the others. */
  static dataDirOf(dataDir: string, study: Pick<StudyRecord, 'slug' | 'first'>): string {
    return study.first ? dataDir : join(dataDir, 'studies', study.slug);
  }

  // Studies ---------------------------------------------------------------------------------------------------------

  studies(): StudyRecord[] {
    return (this.db.prepare('SELECT * FROM studies ORDER BY first DESC, created_at, slug').all() as StudyRow[]).map(decodeStudy);
  }

  study(slug: string): StudyRecord | undefined {
    const row = this.db.prepare('SELECT * FROM studies WHERE slug = ?').get(slug) as StudyRow | undefined;
    return row && decodeStudy(row);
  }

  firstStudy(): StudyRecord | undefined {
    const row = this.db.prepare('SELECT * FROM studies WHERE first = 1').get() as StudyRow | undefined;
    return row && decodeStudy(row);
  }

  /** A new study at version 1. Throws RegistryError (nothing added) for a bad or taken slug. */
  addStudy(s: { slug: string; study_id: string; title: string; config_hash: string; config_json: string; first?: boolean; now: number; by: string | null }): StudyRecord {
    if (!SLUG_PATTERN.test(s.slug)) throw new RegistryError(`slug '${s.slug}': ${SLUG_RULE}`);
    return this.db.transaction(() => {
      if (this.study(s.slug)) throw new RegistryError(`slug '${s.slug}': a study with this slug exists already`);
      this.db
        .prepare('INSERT INTO studies (slug, study_id, title, config_hash, config_json, first, archived, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?)')
        .run(s.slug, s.study_id, s.title, s.config_hash, s.config_json, s.first ? 1 : 0, s.now);
      this.db.prepare('INSERT INTO study_versions (slug, version, config_hash, config_json, created_at) VALUES (?, 1, ?, ?, ?)').run(s.slug, s.config_hash, s.config_json, s.now);
      this.auditNow(s.now, s.by, 'study_add', `${s.slug} (config ${s.config_hash})`);
      return this.study(s.slug)!;
    })();
  }

  /**
   * Make a config the study's current version: a config hash not seen before is a new version (sessions keep the
   * hash they started with); one seen before becomes current again. Returns the version number.
   */
  setVersion(slug: string, v: { study_id: string; title: string; config_hash: string; config_json: string; now: number; by: string | null }): number {
    return this.db.transaction(() => {
      if (!this.study(slug)) throw new RegistryError(`no study '${slug}'`);
      const known = this.db.prepare('SELECT version FROM study_versions WHERE slug = ? AND config_hash = ?').get(slug, v.config_hash) as { version: number } | undefined;
      let version = known?.version;
      if (version === undefined) {
        version = ((this.db.prepare('SELECT MAX(version) AS v FROM study_versions WHERE slug = ?').get(slug) as { v: number | null }).v ?? 0) + 1;
        this.db.prepare('INSERT INTO study_versions (slug, version, config_hash, config_json, created_at) VALUES (?, ?, ?, ?, ?)').run(slug, version, v.config_hash, v.config_json, v.now);
        this.auditNow(v.now, v.by, 'study_version', `${slug} version ${version} (config ${v.config_hash})`);
      }
      this.db.prepare('UPDATE studies SET study_id = ?, title = ?, config_hash = ?, config_json = ? WHERE slug = ?').run(v.study_id, v.title, v.config_hash, v.config_json, slug);
      return version;
    })();
  }

  versions(slug: string): StudyVersion[] {
    return this.db.prepare('SELECT slug, version, config_hash, created_at FROM study_versions WHERE slug = ? ORDER BY version').all(slug) as StudyVersion[];
  }

  setArchived(slug: string, archived: boolean, now: number, by: string | null): void {
    if (!this.study(slug)) throw new RegistryError(`no study '${slug}'`);
    this.db.transaction(() => {
      this.db.prepare('UPDATE studies SET archived = ? WHERE slug = ?').run(archived ? 1 : 0, slug);
      this.auditNow(now, by, archived ? 'study_archive' : 'study_unarchive', slug);
    })();
  }

  /** The study's registry rows (versions, memberships with it); its data directory is the caller's to remove. */
  deleteStudy(slug: string, now: number, by: string | null): void {
    const s = this.study(slug);
    if (!s) throw new RegistryError(`no study '${slug}'`);
    if (s.first) throw new RegistryError(`study '${slug}' is the first study (served at /): it cannot be deleted`);
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM studies WHERE slug = ?').run(slug);
      this.auditNow(now, by, 'study_delete', `${slug} (config ${s.config_hash})`);
    })();
  }

  // Accounts --------------------------------------------------------------------------------------------------------

  accounts(): AccountRecord[] {
    return (this.db.prepare('SELECT * FROM accounts ORDER BY name').all() as AccountRow[]).map(decodeAccount);
  }

  account(name: string): AccountRecord | undefined {
    const row = this.db.prepare('SELECT * FROM accounts WHERE name = ?').get(name) as AccountRow | undefined;
    return row && decodeAccount(row);
  }

  addAccount(a: { name: string; password_hash: string | null; admin: boolean; now: number; by: string | null }): AccountRecord {
    if (!ACCOUNT_PATTERN.test(a.name)) throw new RegistryError(`account '${a.name}': ${ACCOUNT_RULE}`);
    return this.db.transaction(() => {
      if (this.account(a.name)) throw new RegistryError(`account '${a.name}' exists already`);
      this.db.prepare('INSERT INTO accounts (name, password_hash, admin, created_at) VALUES (?, ?, ?, ?)').run(a.name, a.password_hash, a.admin ? 1 : 0, a.now);
      this.auditNow(a.now, a.by, 'account_add', `${a.name}${a.admin ? ' (admin)' : ''}`);
      return this.account(a.name)!;
    })();
  }

  /** A new password hash for an account: every login of it ends. */
  setAccountPassword(name: string, hash: string, now: number, by: string | null): void {
    if (!this.account(name)) throw new RegistryError(`no account '${name}'`);
    this.db.transaction(() => {
      this.db.prepare('UPDATE accounts SET password_hash = ? WHERE name = ?').run(hash, name);
      this.db.prepare('DELETE FROM account_logins WHERE account = ?').run(name);
      this.auditNow(now, by, 'account_password', name);
    })();
  }

  // Memberships -----------------------------------------------------------------------------------------------------

  members(slug: string): Membership[] {
    return this.db.prepare('SELECT slug, account, role FROM memberships WHERE slug = ? ORDER BY account').all(slug) as Membership[];
  }

  membershipsOf(account: string): Membership[] {
    return this.db.prepare('SELECT slug, account, role FROM memberships WHERE account = ? ORDER BY slug').all(account) as Membership[];
  }

  roleOf(slug: string, account: string): Role | undefined {
    return (this.db.prepare('SELECT role FROM memberships WHERE slug = ? AND account = ?').get(slug, account) as { role: Role } | undefined)?.role;
  }

  /** Give an account a role in a study (null: no longer a member). */
  setMember(slug: string, account: string, role: Role | null, now: number, by: string | null): void {
    if (!this.study(slug)) throw new RegistryError(`no study '${slug}'`);
    if (!this.account(account)) throw new RegistryError(`no account '${account}' (add it first: nonolab user add ${account})`);
    if (role !== null && !ROLES.includes(role)) throw new RegistryError(`role '${role}': expected owner or viewer`);
    this.db.transaction(() => {
      if (role === null) this.db.prepare('DELETE FROM memberships WHERE slug = ? AND account = ?').run(slug, account);
      else this.db.prepare('INSERT INTO memberships (slug, account, role) VALUES (?, ?, ?) ON CONFLICT (slug, account) DO UPDATE SET role = excluded.role').run(slug, account, role);
      this.auditNow(now, by, 'member', `${slug}: ${account} ${role ?? 'removed'}`);
    })();
  }

  // Logins (accounts other than the upgraded admin: its logins stay in the first study's store) ----------------------

  insertLogin(tokenHash: string, account: string, passwordHash: string, createdAt: number, expiresAt: number): boolean {
    return this.db.transaction(() => {
      this.db.prepare('DELETE FROM account_logins WHERE expires_at <= ?').run(createdAt);
      // Not stored when the password changed since it was checked: the login must not outlive it.
      if (this.account(account)?.password_hash !== passwordHash) return false;
      this.db.prepare('INSERT INTO account_logins (token_hash, account, password_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)').run(tokenHash, account, passwordHash, createdAt, expiresAt);
      return true;
    })();
  }

  loginOf(tokenHash: string): { account: string; expires_at: number } | undefined {
    return this.db.prepare('SELECT account, expires_at FROM account_logins WHERE token_hash = ?').get(tokenHash) as { account: string; expires_at: number } | undefined;
  }

  deleteLogin(tokenHash: string): void {
    this.db.prepare('DELETE FROM account_logins WHERE token_hash = ?').run(tokenHash);
  }

  // Audit -----------------------------------------------------------------------------------------------------------

  audit(at: number, account: string | null, action: string, detail: string): void {
    this.auditNow(at, account, action, detail);
  }

  auditRows(): RegistryAudit[] {
    return this.db.prepare('SELECT at, account, action, detail FROM registry_audit ORDER BY id').all() as RegistryAudit[];
  }

  private auditNow(at: number, account: string | null, action: string, detail: string): void {
    this.db.prepare('INSERT INTO registry_audit (at, account, action, detail) VALUES (?, ?, ?, ?)').run(at, account, action, detail);
  }
}
