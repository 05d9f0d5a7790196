// Experimenter accounts: login by name and password, login sessions as random tokens (stored hashed), and who may do
// what in which study. The admin account upgraded from the single password ('admin') keeps that password and its logins
// where they were (AdminAuth, in the first study's store: NONOLAB_ADMIN_PASSWORD and the printed password work as
// before); every other account lives in the registry (store/studies.ts: SQLite in the data directory, or the PostgreSQL
// database the server uses).
import { createHash, randomBytes } from 'node:crypto';
import { ADMIN_ACCOUNT, type AccountRecord, type Role, type StudyRegistry } from '../../store/studies.ts';
import { AdminAuth, hashPassword, verifyPassword } from './auth.ts';

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
/** Tokens of registry logins carry this prefix, so a check asks one place. */
const ACCOUNT_TOKEN = 'a.';

export interface LoginOf {
  account: AccountRecord;
  expires_at: number;
}

export class AccountAuth {
  private readonly sessionMs: number;

  constructor(
    readonly registry: StudyRegistry,
    private readonly adminAuth: AdminAuth,
    private readonly clock: () => number = Date.now,
    sessionHours = 12,
  ) {
    this.sessionMs = sessionHours * 3_600_000;
  }

  /**
   * The upgrade in place: the single password's holder becomes the account 'admin' (an admin, owner of the first
   * study) the first time a registry is opened beside it. Idempotent.
   */
  async ensureAdminAccount(firstSlug: string): Promise<void> {
    const now = this.clock();
    if (!(await this.registry.account(ADMIN_ACCOUNT))) {
      try {
        await this.registry.addAccount({ name: ADMIN_ACCOUNT, password_hash: null, admin: true, now, by: null });
      } catch (err) {
        // Made meanwhile by another process starting on the same database: as good.
        if (!(await this.registry.account(ADMIN_ACCOUNT))) throw err;
      }
    }
    if (!(await this.registry.roleOf(firstSlug, ADMIN_ACCOUNT)) && (await this.registry.members(firstSlug)).length === 0) await this.registry.setMember(firstSlug, ADMIN_ACCOUNT, 'owner', now, null);
  }

  /** A login for the right name and password (no name: the admin account, as today's password-only login), else null. */
  async login(name: string | undefined, password: string): Promise<{ token: string; expires_at: number; account: AccountRecord } | null> {
    const account = await this.registry.account(name ?? ADMIN_ACCOUNT);
    if (!account) {
      // As long as a wrong password: no hint whether the name exists.
      verifyPassword(password, hashPassword('timing'));
      return null;
    }
    if (account.password_hash === null) {
      const session = await this.adminAuth.login(password);
      return session && { ...session, account };
    }
    if (!verifyPassword(password, account.password_hash)) return null;
    const token = ACCOUNT_TOKEN + randomBytes(32).toString('base64url');
    const now = this.clock();
    const expires_at = now + this.sessionMs;
    if (!(await this.registry.insertLogin(tokenHash(token), account.name, account.password_hash, now, expires_at))) return null;
    return { token, expires_at, account };
  }

  /** The account and expiry of a live login, else null. */
  async check(token: string | undefined): Promise<LoginOf | null> {
    if (!token) return null;
    const now = this.clock();
    if (token.startsWith(ACCOUNT_TOKEN)) {
      const login = await this.registry.loginOf(tokenHash(token));
      if (!login || login.expires_at <= now) return null;
      const account = await this.registry.account(login.account);
      return account ? { account, expires_at: login.expires_at } : null;
    }
    const expires = await this.adminAuth.check(token);
    if (expires === null) return null;
    const account = await this.registry.account(ADMIN_ACCOUNT);
    return account ? { account, expires_at: expires } : null;
  }

  async logout(token: string | undefined): Promise<void> {
    if (!token) return;
    if (token.startsWith(ACCOUNT_TOKEN)) await this.registry.deleteLogin(tokenHash(token));
    else await this.adminAuth.logout(token);
  }

  /** The account's role in a study, if a member. */
  roleIn(slug: string, account: AccountRecord): Promise<Role | undefined> {
    return this.registry.roleOf(slug, account.name);
  }
}

/**
 * What a role may do on a study's admin route: an owner everything; a viewer watches, replays and exports (GET), but
 * does not change anything (withdraw, flag, extend, end, recruitment, config, members: every other method) and does
 * not download the panel ids (identifying: Prolific/SONA ids).
 */
export function roleAllows(role: Role, method: string, path: string): boolean {
  if (role === 'owner') return true;
  if (method !== 'GET' && method !== 'HEAD') return false;
  return !/^\/exports\/panel-ids\/?$/.test(path) && !/^\/members\/?$/.test(path);
}
