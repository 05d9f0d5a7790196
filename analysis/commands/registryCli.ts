// What `nonolab study …` and `nonolab user …` share: the registry they work on (the server's: the data directory's, or
// the PostgreSQL database's with --database or NONOLAB_DATABASE_URL), one-line errors with exit 2, and the password
// read from standard input or a file (never from the command line, where `ps` shows it).
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RegistryError, StudyRegistry } from '../../store/studies.ts';
import { REGISTRY_FILE } from '../../store/registryDb.ts';
import { isPostgresUrl, redactUrl } from '../../store/stores.ts';

/** Bad input: the command prints `nonolab <command>: <message>` and exits 2, having changed nothing. */
export class CliInputError extends Error {}

export const DATA_DIR_HELP = 'the data directory the server uses (NONOLAB_DATA_DIR; default: logs/ in the current directory)';

export const DATABASE_HELP = 'the PostgreSQL database the server uses (postgres://…; default: NONOLAB_DATABASE_URL); without one, the data directory';

/** Where the registry is: the database named (flag, else NONOLAB_DATABASE_URL), else the data directory. */
export interface RegistryPlace {
  dataDir?: string;
  database?: string;
}

/** The database URL the command works on, if any (checked: a postgres:// URL). */
export function databaseOf(flag: string | undefined): string | undefined {
  const url = flag ?? process.env.NONOLAB_DATABASE_URL;
  if (url === undefined || url === '') return undefined;
  if (!isPostgresUrl(url)) throw new CliInputError(`${flag !== undefined ? '--database' : 'NONOLAB_DATABASE_URL'}: expected postgres://user:password@host:port/database, got '${redactUrl(url)}'`);
  return url;
}

export function dataDirOf(flag: string | undefined): string {
  const dir = resolve(flag ?? process.env.NONOLAB_DATA_DIR ?? 'logs');
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new CliInputError(`--data-dir ${dir}: is a file, expected a folder`);
  return dir;
}

/**
 * Check the input (`check`), open the registry, run `fn`, close it. Bad input is one line on stderr and exit code 2,
 * and changes nothing: a data directory or registry this run made is removed again.
 */
export async function withRegistry<T>(
  command: string,
  place: RegistryPlace,
  check: () => T,
  fn: (registry: StudyRegistry, checked: T, dataDir: string) => void | Promise<void>,
): Promise<void> {
  let registry: StudyRegistry | undefined;
  let made: string[] = [];
  try {
    const database = databaseOf(place.database);
    const dataDir = dataDirOf(place.dataDir);
    const checked = check();
    if (database) {
      try {
        registry = await StudyRegistry.openPostgres(database);
      } catch (err) {
        throw new CliInputError(`cannot use the database at ${redactUrl(database)}: ${(err as Error).message}`);
      }
    } else {
      const file = join(dataDir, REGISTRY_FILE);
      made = existsSync(dataDir) ? (existsSync(file) ? [] : [file, `${file}-wal`, `${file}-shm`]) : [dataDir];
      registry = StudyRegistry.open(dataDir);
    }
    await fn(registry, checked, dataDir);
    made = [];
  } catch (err) {
    if (!(err instanceof CliInputError) && !(err instanceof RegistryError)) throw err;
    console.error(`nonolab ${command}: ${(err as Error).message}`);
    process.exitCode = 2;
  } finally {
    await registry?.close();
    for (const path of made) rmSync(path, { recursive: true, force: true });
  }
}

/** The password: the file's first line (--password-file), else standard input's (piped, or typed and ended with Enter and Ctrl-D). */
export function readPassword(file: string | undefined): string {
  let text: string;
  try {
    text = file !== undefined ? readFileSync(file, 'utf8') : readFileSync(0, 'utf8');
  } catch (err) {
    throw new CliInputError(file !== undefined ? `--password-file ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` : `cannot read the password from standard input (${(err as Error).message})`);
  }
  const password = text.split(/\r?\n/)[0];
  if (password.length < 8) throw new CliInputError(`the password ${file !== undefined ? `in ${file}` : 'on standard input'} is ${password.length === 0 ? 'empty' : 'too short'}: at least 8 characters`);
  if (password.length > 1000) throw new CliInputError('the password is longer than 1000 characters');
  return password;
}
