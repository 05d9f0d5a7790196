// Reading a study config file (Node side, used by the server and the CLI): read, parse, validate with zod, hash.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { StudyConfig, describeIssues } from '../shared/schema/config.ts';
import { loadedStudy, type LoadedStudy } from '../shared/study/config.ts';
import { jsonProblem } from '../shared/jsonError.ts';

export type { LoadedStudy } from '../shared/study/config.ts';

/** The config file cannot be read, is not JSON, or is not a valid study config; the message names the file and the fields. */
export class ConfigError extends Error {}

/** The study config the server runs: $NONOLAB_CONFIG, else the package's study-config/study.json. */
export function defaultStudyConfigPath(): string {
  return resolve(process.env.NONOLAB_CONFIG ?? join(import.meta.dirname, '..', 'study-config', 'study.json'));
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

export function loadStudyConfig(path: string): LoadedStudy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`${path}: cannot read the study config (${(err as Error).message})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${path}: ${jsonProblem(err, text)}`);
  }
  const parsed = StudyConfig.safeParse(raw);
  if (!parsed.success) throw new ConfigError(`${path}: invalid study config\n${describeIssues(parsed.error.issues)}`);
  return loadedStudy(parsed.data, sha256Hex);
}
