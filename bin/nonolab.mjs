#!/usr/bin/env node
// The `nonolab` command: runs analysis/cli.ts through tsx, so no build step is needed.
import { register } from 'tsx/esm/api';
register();
await import('../analysis/cli.ts');
