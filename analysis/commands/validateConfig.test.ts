// `nonolab validate-config` and the server's start-up check refuse a config with unknown keys or a solution that contradicts its clues.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadStudyConfig } from '../../node/studyConfig.ts';
import { tempDir } from '../../tests/support/tempDirs.ts';

const root = join(import.meta.dirname, '..', '..');
const shipped = join(root, 'study-config', 'study.json');
const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'analysis/cli.ts'), ...args], { cwd: root, encoding: 'utf8' });

type Raw = Record<string, any>;
/** The shipped study, changed by `change`, written to a temporary file. */
function variant(change: (config: Raw) => void): string {
  const config = JSON.parse(readFileSync(shipped, 'utf8')) as Raw;
  change(config);
  const file = join(tempDir('nonolab-validate-'), 'study.json');
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}
/** The error loadStudyConfig (what validate-config and the server run) throws for `file`. */
function errorOf(file: string): string {
  try {
    loadStudyConfig(file);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error(`${file} was accepted`);
}
/** Flip the first cell of a puzzle's first solution row. */
const flipFirstCell = (p: Raw) => {
  const row = p.solution[0] as string;
  p.solution[0] = (row[0] === '#' ? '.' : '#') + row.slice(1);
};

describe('validate-config', () => {
  it('accepts the shipped study and every config fixture of the tests', () => {
    for (const file of ['study-config/study.json', 'analysis/simulate/fixtures/bot-study.json', 'analysis/pipeline/fixtures/study.json']) {
      expect(() => loadStudyConfig(join(root, file)), file).not.toThrow();
    }
  });

  it('refuses a misspelt key, at the top level or inside, naming the nearest known key', () => {
    expect(errorOf(variant((c) => (c.recruitmnet = { open: false })))).toContain('unknown key recruitmnet at top level; did you mean recruitment?');
    expect(errorOf(variant((c) => (c.completion.redirect_ur = 'https://panel.example/done?cc={code}')))).toContain('completion: unknown key redirect_ur; did you mean redirect_url?');
    expect(errorOf(variant((c) => (c.timing = { trust_client_clok: true })))).toContain('timing: unknown key trust_client_clok; did you mean trust_client_clock?');
    expect(errorOf(variant((c) => (c.phases[4].skip_min_second = 20)))).toContain('phases.4: unknown key skip_min_second; did you mean skip_min_seconds?');
    expect(errorOf(variant((c) => (c.phases[3].items[0].requird = false)))).toContain('phases.3.items.0: unknown key requird; did you mean required?');
    expect(errorOf(variant((c) => (c.puzzles[2].solutoin = c.puzzles[2].solution)))).toContain('puzzles.2: unknown key solutoin; did you mean solution?');
    // Nothing near: the message lists the keys the object takes.
    expect(errorOf(variant((c) => (c.recruitment = { enabeld: true })))).toContain('recruitment: unknown key enabeld; known keys: open, target_completed, closed_title, closed_message');
  });

  it('refuses a solution that contradicts its own clues, and a clue no line can hold', () => {
    expect(errorOf(variant((c) => flipFirstCell(c.puzzles[0])))).toMatch(/puzzles\.0\.solution\.0: the solution's row 1 reads \[[\d ]+\], its clue is \[[\d ]+\]: the solution contradicts the clues/);
    expect(errorOf(variant((c) => flipFirstCell(c.practice_puzzles[1])))).toMatch(/practice_puzzles\.1\.solution\.0: the solution's row 1 reads/);
    // Rows that read right but a column that does not: the clue of column 1 changed.
    expect(errorOf(variant((c) => (c.puzzles[1].cols[0] = [c.puzzles[1].cols[0][0] + 1])))).toMatch(/puzzles\.1\.solution: the solution's column 1 reads/);
    expect(errorOf(variant((c) => (c.puzzles[0].rows[0] = [6, 4])))).toContain('puzzles.0.rows.0: row clue needs 11 cells, the row has 10');
  });

  it('names every string a declared language lacks: the study\'s texts by path, catalogue strings of a language nonolab does not ship, unknown keys', () => {
    // A text added in English only: both other languages miss it, by path.
    const added = errorOf(variant((c) => c.phases[3].items.push({ type: 'text', id: 'hobby', label: 'Your hobby?', required: false })));
    expect(added).toContain("languages.texts.de: 1 texts of the study missing in 'de': pre_survey.hobby.label");
    expect(added).toContain("languages.texts.ar: 1 texts of the study missing in 'ar': pre_survey.hobby.label");
    // A translation dropped: named by its path.
    expect(errorOf(variant((c) => delete c.languages.texts.de['consent.agree_label']))).toContain("languages.texts.de: 1 texts of the study missing in 'de': consent.agree_label");
    // French, which nonolab ships no catalogue for: every catalogue string is named, and every study text.
    const french = errorOf(variant((c) => c.languages.available.push('fr')));
    expect(french).toMatch(/languages\.messages\.fr: nonolab ships no 'fr' catalogue: \d+ strings missing: app\.loading, app\.loadingPuzzle, /);
    expect(french).toContain("texts of the study missing in 'fr': title, recruitment.closed_title");
    // A misspelt override key or path, and a language not declared.
    expect(errorOf(variant((c) => (c.languages.messages = { de: { 'board.sumbit': 'Fertig' } })))).toContain("languages.messages.de.board.sumbit: no catalogue string 'board.sumbit'");
    expect(errorOf(variant((c) => (c.languages.texts.de['consent.titel'] = 'Einwilligung')))).toContain("languages.texts.de.consent.titel: the config has no text at 'consent.titel'");
    expect(errorOf(variant((c) => (c.languages.texts.fr = {})))).toContain("languages.texts.fr: 'fr' is not a declared language (en, de, ar)");
    expect(errorOf(variant((c) => (c.languages.default = 'fr')))).toContain("languages.default: the default language 'fr' is not among the available ones");
    // A config without languages is English only, as before; a study override of a shipped language's string is accepted.
    expect(() => loadStudyConfig(variant((c) => delete c.languages))).not.toThrow();
    expect(() => loadStudyConfig(variant((c) => (c.languages.messages = { de: { 'board.submit': 'Fertig!' } })))).not.toThrow();
    // So is a hint sentence (the hints' catalogue, shared/i18n/hints/), and French names the hint keys it lacks too.
    expect(() => loadStudyConfig(variant((c) => (c.languages.messages = { de: { 'hint.nonogram.overlap': '{line}, Hinweis {clue}: Überlappung, {cell} ist {valueText}.' } })))).not.toThrow();
    expect(errorOf(variant((c) => (c.languages.messages = { de: { 'hint.nonogram.overlapp': 'x' } })))).toContain("no catalogue string 'hint.nonogram.overlapp'");
    expect(french).toContain('hint.nonogram.foothold-empty');
  });

  it('the command exits 2 with the message on stderr and prints nothing on stdout', () => {
    const r = cli('validate-config', variant((c) => (c.recruitmnet = {})));
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('invalid study config\nunknown key recruitmnet at top level; did you mean recruitment?');
  });

  /** The server started on `config` with a fresh data directory (it should refuse: the test reads its exit). */
  const startServer = (config: string) => {
    const dataDir = join(tempDir('nonolab-validate-'), 'data');
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'server', 'main.ts')], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, PORT: '0', NONOLAB_DATA_DIR: dataDir, NONOLAB_CONFIG: config },
      timeout: 30_000,
    });
    return { r, dataDir };
  };

  it('the server refuses to start with such a config (exit 2, the field named) and creates no data directory', () => {
    const { r, dataDir } = startServer(variant((c) => (c.completion.redirect_ur = 'https://panel.example/done')));
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain('completion: unknown key redirect_ur; did you mean redirect_url?');
    expect(existsSync(dataDir)).toBe(false);
  });

  it('the server refuses to start a study missing a string of a language it declares (exit 2, the path named)', () => {
    const { r, dataDir } = startServer(variant((c) => delete c.languages.texts.ar['complete.text']));
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain("languages.texts.ar: 1 texts of the study missing in 'ar': complete.text");
    expect(existsSync(dataDir)).toBe(false);
  });
});
