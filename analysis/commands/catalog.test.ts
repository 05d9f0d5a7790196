// The command catalog the top-level help is printed from matches the commands themselves, and names every one.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS, type CommandName } from './catalog.ts';
import { LOADERS } from './loaders.ts';

describe('the command catalog', () => {
  it("gives each command's description and usage exactly as its loaded module defines them", async () => {
    expect(Object.keys(LOADERS).sort()).toEqual(Object.keys(COMMANDS).sort());
    for (const name of Object.keys(COMMANDS) as CommandName[]) {
      const entry: { description: string; usage: string } = COMMANDS[name];
      const program = new Command();
      (await LOADERS[name]())(program);
      expect(program.commands.map((c) => c.name()), name).toEqual([name]);
      const command = program.commands[0];
      expect(command.description(), name).toBe(entry.description);
      expect(program.createHelp().subcommandTerm(command), name).toBe([name, entry.usage].filter(Boolean).join(' '));
    }
  });

  it('lists every command module in analysis/commands', () => {
    const registering = readdirSync(import.meta.dirname)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .filter((f) => /\.command\('[a-z-]+'\)/.test(readFileSync(join(import.meta.dirname, f), 'utf8')));
    const named = registering.map((f) => /\.command\('([a-z-]+)'\)/.exec(readFileSync(join(import.meta.dirname, f), 'utf8'))![1]);
    expect(named.sort()).toEqual(Object.keys(COMMANDS).sort());
  });

  it("says which options are required in each command's --help (commander's requiredOption)", async () => {
    const help = (name: string) => spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', 'cli.ts'), name, '--help'], { encoding: 'utf8' });
    const simulate = help('simulate');
    expect(simulate.status).toBe(0);
    expect(simulate.stdout).toMatch(/--participants <n> +number of bot participants \(required\)\n/);
    expect(simulate.stdout).toMatch(/--seed <s> +seed \(same seed, same study\) \(required\)\n/);
    expect(simulate.stdout).not.toMatch(/--server <url>[^\n]*\(required\)/);
    for (const name of Object.keys(COMMANDS) as CommandName[]) {
      const program = new Command();
      (await LOADERS[name]())(program);
      const required = program.commands[0].options.filter((o) => o.mandatory);
      if (!required.length || name === 'simulate') continue;
      const text = help(name).stdout.replace(/\n {10,}/g, ' ');
      for (const option of required) expect(text, `${name} ${option.flags}`).toMatch(new RegExp(`${option.flags.replace(/[<>.[\]]/g, '\\$&')} [^\n]*\\(required\\)`));
    }
  });
});
