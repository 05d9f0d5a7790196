// `nonolab migrate --from DATA_DIR --to postgres://…`: a data directory's SQLite + NDJSON data into PostgreSQL: every
// study's store and the registry of studies and accounts (store/migrate.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { migrate } from '../../store/migrate.ts';
import { isPostgresUrl, redactUrl } from '../../store/stores.ts';
import { commandDescription } from './catalog.ts';
import { inputProblem } from './outputPaths.ts';

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description(commandDescription('migrate'))
    .requiredOption('--from <dir>', 'the data directory (NONOLAB_DATA_DIR: nonolab.sqlite and sessions/)')
    .requiredOption('--to <url>', 'the PostgreSQL database (postgres://user:password@host:port/database), as NONOLAB_DATABASE_URL will name it')
    .action(async (flags: { from: string; to: string }) => {
      if (!isPostgresUrl(flags.to)) {
        console.error(`nonolab migrate: --to: expected postgres://user:password@host:port/database, got '${redactUrl(flags.to)}'`);
        process.exitCode = 2;
        return;
      }
      // The data directory is checked before any connection is made: a folder holding nonolab.sqlite.
      const fromProblem = inputProblem('--from', flags.from, 'folder') ?? (existsSync(join(flags.from, 'nonolab.sqlite')) ? null : `--from ${flags.from}: no nonolab.sqlite there (not a nonolab data directory)`);
      if (fromProblem) {
        console.error(`nonolab migrate: ${fromProblem}`);
        process.exitCode = 2;
        return;
      }
      try {
        const report = await migrate({ from: flags.from, to: flags.to, log: (m) => console.error(`migrate: ${m}`) });
        console.log(
          `migrate: ${report.sessions} sessions, ${report.sequences} sequences, ${report.events_total} events (${report.events_copied} copied by this run)` +
            `${report.sessions_removed.length ? `, ${report.sessions_removed.length} withdrawn session(s) removed` : ''}; the experimenter's password, logins and marks with them`,
        );
        for (const [slug, r] of Object.entries(report.studies))
          console.log(`migrate: study ${slug}: ${r.sessions} sessions, ${r.sequences} sequences, ${r.events_total} events (${r.events_copied} copied by this run)${r.sessions_removed.length ? `, ${r.sessions_removed.length} withdrawn session(s) removed` : ''}`);
        if (report.registry) console.log(`migrate: the registry: ${report.counts.studies?.target ?? 0} studies, ${report.counts.accounts?.target ?? 0} accounts, their memberships, logins and audit`);
        for (const [table, c] of Object.entries(report.counts)) console.log(`  ${table}: ${c.source} -> ${c.target}`);
        if (report.mismatches.length > 0) {
          for (const m of report.mismatches) console.error(`migrate: MISMATCH ${m}`);
          console.error('migrate: the copy does not agree with the data directory (was the server still writing?); stop the server and run it again');
          process.exitCode = 1;
          return;
        }
        console.log(`migrate: verified: every table's count, the experimenter's and the registry's rows and every session log's SHA-256 agree. Start the server with NONOLAB_DATABASE_URL=${redactUrl(flags.to)}`);
      } catch (err) {
        console.error(`nonolab migrate: ${(err as Error).message}`);
        process.exitCode = 1;
      }
    });
}
