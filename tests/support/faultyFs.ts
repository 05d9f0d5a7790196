// Test support: node:fs with a hand on the disk: fdatasync can be held back, and writes can fail as a full disk would.
// Use from a vi.mock factory: vi.mock('node:fs', async (orig) => faultyFs(await orig(), control)).

export interface FsControl {
  /** While true, fdatasync callbacks wait in `held` until the test runs them. */
  holdSync: boolean;
  held: (() => void)[];
  /** The next N writes fail with ENOSPC. */
  failWrites: number;
  /** fdatasync calls seen. */
  syncCalls?: number;
}

export function faultyFs<T extends typeof import('node:fs')>(fs: T, control: FsControl): T {
  const fdatasync = (fd: number, cb: (err: NodeJS.ErrnoException | null) => void) => {
    if (control.syncCalls !== undefined) control.syncCalls++;
    if (control.holdSync) control.held.push(() => fs.fdatasync(fd, cb));
    else fs.fdatasync(fd, cb);
  };
  const write = (...args: unknown[]) => {
    if (control.failWrites > 0) {
      control.failWrites--;
      const cb = args.at(-1) as (err: NodeJS.ErrnoException) => void;
      setImmediate(() => cb(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })));
      return;
    }
    return (fs.write as (...a: unknown[]) => void)(...args);
  };
  return { ...fs, fdatasync, write, default: { ...fs, fdatasync, write } };
}

/** Between tests: release every held fdatasync and stop failing writes. */
export function resetFaults(control: FsControl): void {
  control.holdSync = false;
  control.held.splice(0).forEach((release) => release());
  control.failWrites = 0;
}
