// `nonolab study add CONFIG --slug SLUG [--owner NAME] [--viewer NAME]` and `nonolab study list`: the studies of the
// server's registry (store/studies.ts: its data directory's, or its PostgreSQL database's with --database or
// NONOLAB_DATABASE_URL). A study added while the server runs is served at its first request.
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { ConfigError, loadStudyConfig } from '../../node/studyConfig.ts';
import { ADMIN_ACCOUNT, SLUG_PATTERN, SLUG_RULE, StudyRegistry, schemaOf, type Role } from '../../store/studies.ts';
import { REGISTRY_FILE } from '../../store/registryDb.ts';
import { commandDescription } from './catalog.ts';
import { CliInputError, DATABASE_HELP, DATA_DIR_HELP, dataDirOf, databaseOf, withRegistry } from './registryCli.ts';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerStudy(program: Command): void {
  const study = program.command('study').description(commandDescription('study'));
  study
    .command('add')
    .description('add a study from a config file (checked as validate-config checks it); its links are /s/SLUG/')
    .argument('<config>', 'study config JSON')
    .requiredOption('--slug <slug>', 'its name in links: /s/<slug>/ and /api/admin/studies/<slug>/ (lowercase letters, digits, -)')
    .option('--owner <name>', 'an account that owns it (repeatable; default: admin)', collect)
    .option('--viewer <name>', 'an account that may watch, replay and export it (repeatable)', collect)
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--database <url>', DATABASE_HELP)
    .action(async (file: string, flags: { slug: string; owner?: string[]; viewer?: string[]; dataDir?: string; database?: string }) => {
      const check = () => {
        if (!SLUG_PATTERN.test(flags.slug)) throw new CliInputError(`--slug ${flags.slug}: ${SLUG_RULE}`);
        try {
          return loadStudyConfig(file);
        } catch (err) {
          if (err instanceof ConfigError) throw new CliInputError(err.message.replace(/\n\s*/g, '; '));
          throw err;
        }
      };
      await withRegistry('study add', flags, check, async (registry, loaded) => {
        if (await registry.study(flags.slug)) throw new CliInputError(`--slug ${flags.slug}: a study with this slug exists already`);
        const members: [string, Role][] = [...(flags.owner ?? [ADMIN_ACCOUNT]).map((n): [string, Role] => [n, 'owner']), ...(flags.viewer ?? []).map((n): [string, Role] => [n, 'viewer'])];
        for (const [name, role] of members) {
          if (!(await registry.account(name)) && name !== ADMIN_ACCOUNT) throw new CliInputError(`--${role} ${name}: no such account (add it first: nonolab user add ${name})`);
        }
        const now = Date.now();
        await registry.transaction(async (r) => {
          // The admin account of an upgraded installation (its password stays the server's: see server/admin/accounts.ts).
          if (!(await r.account(ADMIN_ACCOUNT)) && members.some(([n]) => n === ADMIN_ACCOUNT)) await r.addAccount({ name: ADMIN_ACCOUNT, password_hash: null, admin: true, now, by: null });
          await r.addStudy({ slug: flags.slug, study_id: loaded.config.id, title: loaded.config.title, config_hash: loaded.hash, config_json: JSON.stringify(loaded.config), now, by: 'cli' });
          for (const [name, role] of members) await r.setMember(flags.slug, name, role, now, 'cli');
        });
        console.log(JSON.stringify({ slug: flags.slug, id: loaded.config.id, config_hash: loaded.hash, participant_link: `/s/${flags.slug}/`, admin_api: `/api/admin/studies/${flags.slug}/`, members: members.map(([name, role]) => ({ name, role })) }));
      });
    });
  study
    .command('list')
    .description('list the studies: one JSON line each (slug, id, title, config_hash, version, first, archived, members)')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--database <url>', DATABASE_HELP)
    .action(async (flags: { dataDir?: string; database?: string }) => {
      // No registry yet (a server of this version never ran here, no study added): nothing to list, nothing made.
      // A directory that is not there is a mistyped path, not a server with no studies.
      let onDatabase: boolean;
      try {
        onDatabase = databaseOf(flags.database) !== undefined;
        if (!onDatabase && !existsSync(dataDirOf(flags.dataDir))) throw new CliInputError(`--data-dir ${dataDirOf(flags.dataDir)}: no such directory`);
      } catch (err) {
        if (!(err instanceof CliInputError)) throw err;
        console.error(`nonolab study list: ${err.message}`);
        process.exitCode = 2;
        return;
      }
      if (!onDatabase && !existsSync(join(dataDirOf(flags.dataDir), REGISTRY_FILE))) return;
      await withRegistry('study list', flags, () => null, async (registry, _none, dataDir) => {
        for (const s of await registry.studies()) {
          const versions = await registry.versions(s.slug);
          console.log(
            JSON.stringify({
              slug: s.slug,
              id: s.study_id,
              title: s.title,
              config_hash: s.config_hash,
              version: versions.find((v) => v.config_hash === s.config_hash)?.version ?? null,
              versions: versions.length,
              first: s.first,
              archived: s.archived,
              participant_link: s.first ? '/' : `/s/${s.slug}/`,
              ...(onDatabase ? { schema: schemaOf(s) ?? 'public' } : { data_dir: relative(dataDir, StudyRegistry.dataDirOf(dataDir, s)) || '.' }),
              members: (await registry.members(s.slug)).map((m) => ({ name: m.account, role: m.role })),
            }),
          );
        }
      });
    });
}
