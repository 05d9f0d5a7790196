// `nonolab validate-config FILE`: check a study config the way the server does at start-up.
import type { Command } from 'commander';
import { loadStudyConfig, ConfigError } from '../../node/studyConfig.ts';
import { commandDescription } from './catalog.ts';

export function registerValidateConfig(program: Command): void {
  program
    .command('validate-config')
    .description(commandDescription('validate-config'))
    .argument('<file>', 'study config JSON')
    .action((file: string) => {
      try {
        const { config, hash } = loadStudyConfig(file);
        console.log(JSON.stringify({ file, ok: true, id: config.id, config_hash: hash, phases: config.phases.map((p) => p.kind), puzzles: config.puzzles.length }));
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        console.error(err.message);
        process.exitCode = 2;
      }
    });
}
