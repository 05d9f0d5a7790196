// The failed-login counts of the experimenter's login limiter (express-rate-limit) kept in the study's store: on a
// shared PostgreSQL database every process and machine counts the same failures, so a guesser gets the limit once, not
// once per process. Client addresses are stored as SHA-256 hashes.
import { createHash } from 'node:crypto';
import type { IncrementResponse, Options, Store } from 'express-rate-limit';
import type { StoreOps } from '../../store/store.ts';

export class StoreLoginLimit implements Store {
  readonly localKeys = false;
  readonly prefix = 'admin-login:';
  private windowMs = 15 * 60_000;

  constructor(
    private readonly store: StoreOps,
    private readonly clock: () => number = Date.now,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  private key(client: string): string {
    return createHash('sha256').update(this.prefix + client).digest('hex');
  }

  async increment(client: string): Promise<IncrementResponse> {
    const { hits, reset_at } = await this.store.countLoginFailure(this.key(client), this.clock(), this.windowMs);
    return { totalHits: hits, resetTime: new Date(reset_at) };
  }

  decrement(client: string): Promise<void> {
    return this.store.uncountLoginFailure(this.key(client));
  }

  resetKey(client: string): Promise<void> {
    return this.store.clearLoginFailures(this.key(client));
  }
}
