// Test support: Debian's headless Chromium driven by playwright-core.
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** `extraArgs`: more Chromium flags (e.g. `--host-resolver-rules=...` to give a loopback server a LAN-like name). */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...CHROMIUM_ARGS, ...extraArgs], headless: true });
}
