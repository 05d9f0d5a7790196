// Experimenter authentication: one password (scrypt-hashed in SQLite), login sessions as random tokens (stored hashed).
import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type Database from 'better-sqlite3';

const SCRYPT_N = 16_384;
const SCRYPT_R = 8;
const SCRYPT_P = 1;
const KEY_LENGTH = 32;

/** `scrypt$N$r$p$salt$hash` (base64url salt and hash). */
export function hashPassword(password: string, salt: Buffer = randomBytes(16)): string {
  const key = scryptSync(password, salt, KEY_LENGTH, { N: SCRYPT_N, r: SCRYPT_R, p: SCRYPT_P });
  return ['scrypt', SCRYPT_N, SCRYPT_R, SCRYPT_P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export function verifyPassword(password: string, stored: string): boolean {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const want = Buffer.from(hash, 'base64url');
  const got = scryptSync(password, Buffer.from(salt, 'base64url'), want.length, { N: Number(n), r: Number(r), p: Number(p) });
  return got.length === want.length && timingSafeEqual(got, want);
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export interface AdminAuthOptions {
  db: Database.Database;
  /** NONOLAB_ADMIN_PASSWORD: when given it is the password (its hash replaces a stored one). */
  password?: string;
  /** Where a generated password is printed, once. */
  log: (message: string) => void;
  clock?: () => number;
  sessionHours?: number;
}

/** The experimenter's password and login sessions, kept in the study's SQLite file (tables admin_*). */
export class AdminAuth {
  private readonly db: Database.Database;
  private readonly clock: () => number;
  private readonly sessionMs: number;

  constructor(opts: AdminAuthOptions) {
    this.db = opts.db;
    this.clock = opts.clock ?? Date.now;
    this.sessionMs = (opts.sessionHours ?? 12) * 3_600_000;
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS admin_credentials (id INTEGER PRIMARY KEY CHECK (id = 1), password_hash TEXT NOT NULL, set_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS admin_sessions (token_hash TEXT PRIMARY KEY, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
    `);
    const stored = this.storedHash();
    if (opts.password !== undefined && opts.password.length > 0) {
      if (!stored || !verifyPassword(opts.password, stored)) this.setPassword(opts.password);
    } else if (!stored) {
      const generated = randomBytes(12).toString('base64url');
      this.setPassword(generated);
      opts.log(
        `experimenter password (shown only this once; it is stored hashed): ${generated}\n` +
          '  log in at /dashboard; set NONOLAB_ADMIN_PASSWORD to choose your own',
      );
    }
  }

  private storedHash(): string | undefined {
    return (this.db.prepare('SELECT password_hash FROM admin_credentials WHERE id = 1').get() as { password_hash: string } | undefined)?.password_hash;
  }

  /** Replace the password; every login session ends. */
  setPassword(password: string): void {
    this.db.transaction(() => {
      this.db
        .prepare('INSERT INTO admin_credentials (id, password_hash, set_at) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET password_hash = excluded.password_hash, set_at = excluded.set_at')
        .run(hashPassword(password), this.clock());
      this.db.prepare('DELETE FROM admin_sessions').run();
    })();
  }

  /** A new login session token for the right password, else null. */
  login(password: string): { token: string; expires_at: number } | null {
    const stored = this.storedHash();
    if (!stored || !verifyPassword(password, stored)) return null;
    const token = randomBytes(32).toString('base64url');
    const now = this.clock();
    const expires_at = now + this.sessionMs;
    this.db.prepare('DELETE FROM admin_sessions WHERE expires_at <= ?').run(now);
    this.db.prepare('INSERT INTO admin_sessions (token_hash, created_at, expires_at) VALUES (?, ?, ?)').run(tokenHash(token), now, expires_at);
    return { token, expires_at };
  }

  /** The session's expiry when the token is a live login, else null. */
  check(token: string | undefined): number | null {
    if (!token) return null;
    const row = this.db.prepare('SELECT expires_at FROM admin_sessions WHERE token_hash = ?').get(tokenHash(token)) as { expires_at: number } | undefined;
    return row && row.expires_at > this.clock() ? row.expires_at : null;
  }

  logout(token: string | undefined): void {
    if (token) this.db.prepare('DELETE FROM admin_sessions WHERE token_hash = ?').run(tokenHash(token));
  }
}
