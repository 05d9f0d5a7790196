// Experimenter authentication: one password (scrypt-hashed in the study's store), login sessions as random tokens (stored hashed).
import { createHash, randomBytes } from 'node:crypto';
import type { StudyStore } from '../../store/store.ts';

export { hashPassword, verifyPassword } from '../../store/passwords.ts';
import { hashPassword, verifyPassword } from '../../store/passwords.ts';

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export interface AdminAuthOptions {
  /** The study's store (SQLite: tables admin_* of nonolab.sqlite; PostgreSQL: the same tables, shared by every process). */
  store: StudyStore;
  /** NONOLAB_ADMIN_PASSWORD: when given it is the password (its hash replaces a stored one). */
  password?: string;
  /** Where a generated password is printed, once. */
  log: (message: string) => void;
  clock?: () => number;
  sessionHours?: number;
}

/**
 * The experimenter's password and login sessions, kept in the study's store: every process on one database checks
 * the same password and accepts the same logins, and a password changed through one ends every login at all of them.
 */
export class AdminAuth {
  private readonly store: StudyStore;
  private readonly clock: () => number;
  private readonly sessionMs: number;

  private constructor(opts: AdminAuthOptions) {
    this.store = opts.store;
    this.clock = opts.clock ?? Date.now;
    this.sessionMs = (opts.sessionHours ?? 12) * 3_600_000;
  }

  /**
   * The password set up: a given one stored unless it is the stored one already; none given and none stored, one is
   * generated and printed (by the one process, of several starting at once, whose hash was stored first).
   */
  static async open(opts: AdminAuthOptions): Promise<AdminAuth> {
    const auth = new AdminAuth(opts);
    const stored = await auth.store.adminPasswordHash();
    if (opts.password !== undefined && opts.password.length > 0) {
      if (!stored || !verifyPassword(opts.password, stored)) await auth.setPassword(opts.password);
    } else if (!stored) {
      const generated = randomBytes(12).toString('base64url');
      if (await auth.store.initAdminPassword(hashPassword(generated), auth.clock()))
        opts.log(
          `experimenter password (shown only this once; it is stored hashed): ${generated}\n` +
            '  log in at /dashboard; set NONOLAB_ADMIN_PASSWORD to choose your own',
        );
    }
    return auth;
  }

  /** Replace the password; every login session ends (at every process on the store), one made meanwhile too. */
  setPassword(password: string): Promise<void> {
    const hash = hashPassword(password);
    return this.store.transaction((tx) => tx.setAdminPassword(hash, this.clock()));
  }

  /** A new login session token for the right password, else null. */
  async login(password: string): Promise<{ token: string; expires_at: number } | null> {
    const stored = await this.store.adminPasswordHash();
    if (!stored || !verifyPassword(password, stored)) return null;
    const token = randomBytes(32).toString('base64url');
    const now = this.clock();
    const expires_at = now + this.sessionMs;
    // Not stored if the password changed since it was read (through another process): that login would outlive it.
    if (!(await this.store.insertAdminLogin(tokenHash(token), now, expires_at, stored))) return null;
    return { token, expires_at };
  }

  /** The session's expiry when the token is a live login, else null. */
  async check(token: string | undefined): Promise<number | null> {
    if (!token) return null;
    const expires = await this.store.adminLoginExpiry(tokenHash(token));
    return expires !== undefined && expires > this.clock() ? expires : null;
  }

  async logout(token: string | undefined): Promise<void> {
    if (token) await this.store.deleteAdminLogin(tokenHash(token));
  }
}
