#!/usr/bin/env node
// The `nonolab` command: runs the compiled CLI (dist/node/cli.js, built by `npm install` / `npm run build`); no TypeScript at run time.
try {
  await import('../dist/node/cli.js');
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('dist/node/cli.js')) throw err;
  console.error('nonolab: the compiled CLI is missing (dist/node/cli.js): run `npm install` or `npm run build` in the nonolab folder');
  process.exit(2);
}
