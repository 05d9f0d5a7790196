// The command catalog the top-level help is printed from matches the commands themselves, and names every one.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './catalog.ts';

describe('the command catalog', () => {
  it("gives each command's description and usage exactly as its loaded module defines them", async () => {
    for (const [name, entry] of Object.entries(COMMANDS)) {
      const program = new Command();
      (await entry.load())(program);
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
});
