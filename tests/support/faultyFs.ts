// Test support: node:fs with a hand on the disk: fdatasync can be held back or fail, and writes can fail as a full
// disk would.
// Use from a vi.mock factory: vi.mock('node:fs', async (orig) => faultyFs(await orig(), control)).

export interface FsControl {
  /** While true, fdatasync callbacks wait in `held` until the test runs them. */
  holdSync: boolean;
  held: (() => void)[];
  /** The next N writes fail with ENOSPC. */
  failWrites: number;
  /** fdatasync calls seen. */
  syncCalls?: number;
  /** When set, the path of each held fdatasync's file, in the order of `held` (Linux: read from /proc/self/fd). */
  heldPaths?: string[];
  /** The next N fdatasync calls fail with EIO. */
  failSyncs?: number;
}

export function faultyFs<T extends typeof import('node:fs')>(fs: T, control: FsControl): T {
  const fdatasync = (fd: number, cb: (err: NodeJS.ErrnoException | null) => void) => {
    if (control.syncCalls !== undefined) control.syncCalls++;
    if (control.failSyncs) {
      control.failSyncs--;
      setImmediate(() => cb(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' })));
      return;
    }
    if (control.holdSync) {
      control.held.push(() => fs.fdatasync(fd, cb));
      if (control.heldPaths) {
        let path = '?';
        try {
          path = fs.readlinkSync(`/proc/self/fd/${fd}`);
        } catch {
          // not Linux
        }
        control.heldPaths.push(path);
      }
    } else fs.fdatasync(fd, cb);
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
  control.failSyncs = 0;
  if (control.heldPaths) control.heldPaths = [];
}
