// Loading the study configuration: read, validate with zod, hash, and derive what the browser may see.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { StudyConfig, describeIssues } from '../shared/schema/config.ts';
import type { ClientStudy } from '../shared/schema/api.ts';

export class ConfigError extends Error {}

export interface LoadedStudy {
  config: StudyConfig;
  hash: string;
  client: ClientStudy;
}

/** Stable JSON: keys sorted, so the hash does not depend on formatting or key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

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
    throw new ConfigError(`${path}: not valid JSON (${(err as Error).message})`);
  }
  const parsed = StudyConfig.safeParse(raw);
  if (!parsed.success) throw new ConfigError(`${path}: invalid study config\n${describeIssues(parsed.error.issues)}`);
  const config = parsed.data;
  const hash = createHash('sha256').update(canonical(config)).digest('hex').slice(0, 16);
  const client: ClientStudy = {
    id: config.id,
    title: config.title,
    config_hash: hash,
    phases: config.phases,
    puzzles: [...config.puzzles, ...config.practice_puzzles].map(({ id, width, height, rows, cols }) => ({ id, width, height, rows, cols })),
    hint_policy: config.hints.policy,
  };
  return { config, hash, client };
}
