// The app version: package.json's `version`, the one the server stamps on every record (app_version) and `nonolab --version` prints.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

let cached: string | null = null;

export function appVersion(): string {
  cached ??= (JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
  return cached;
}
