// `nonolab user add NAME [--admin]`: an experimenter account on the server's registry (its data directory's, or its
// PostgreSQL database's with --database or NONOLAB_DATABASE_URL), its password read from
// standard input or --password-file (never an argument), stored scrypt-hashed (server/admin/auth.ts).
import type { Command } from 'commander';
import { hashPassword } from '../../store/passwords.ts';
import { ACCOUNT_PATTERN, ACCOUNT_RULE } from '../../store/studies.ts';
import { commandDescription } from './catalog.ts';
import { CliInputError, DATABASE_HELP, DATA_DIR_HELP, readPassword, withRegistry } from './registryCli.ts';

export function registerUser(program: Command): void {
  const user = program.command('user').description(commandDescription('user'));
  user
    .command('add')
    .description('add an experimenter account; the password comes from standard input (or --password-file)')
    .argument('<name>', 'the account name (letters, digits, . _ @ -)')
    .option('--admin', 'an admin: manages accounts and memberships')
    .option('--password-file <file>', 'read the password from this file (its first line) instead of standard input')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--database <url>', DATABASE_HELP)
    .action(async (name: string, flags: { admin?: boolean; passwordFile?: string; dataDir?: string; database?: string }) => {
      const check = () => {
        if (!ACCOUNT_PATTERN.test(name)) throw new CliInputError(`${name}: ${ACCOUNT_RULE}`);
        return readPassword(flags.passwordFile);
      };
      await withRegistry('user add', flags, check, async (registry, password) => {
        if (await registry.account(name)) throw new CliInputError(`account '${name}' exists already`);
        await registry.addAccount({ name, password_hash: hashPassword(password), admin: flags.admin ?? false, now: Date.now(), by: 'cli' });
        console.log(JSON.stringify({ name, admin: flags.admin ?? false }));
      });
    });
}
