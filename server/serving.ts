// The serving mode (plain HTTP, nonolab's own HTTPS, behind a reverse proxy), read once from the environment.
//
// The security headers, the cookies' `Secure` flag, Express's `trust proxy` and the start-up URLs follow from it.
// Why a mode at all: helmet's defaults suit a site on https only. Its CSP carries `upgrade-insecure-requests`, which
// makes a browser fetch every asset of a page at http://192.168.1.20:8080/ from https://192.168.1.20:8080/ (no such
// server: a blank page), and HSTS tells the browser to use https for the host from then on. A lab network served over
// plain HTTP must get neither, and must not mark cookies `Secure` (the browser would drop them). Over https (nonolab's
// own TLS, or a proxy in front whose public URL is https) all three are wanted. Only the browser's side of the
// connection matters, so the mode is named by what the participant's browser sees:
//
//   http   plain HTTP (a lab LAN, or this machine only): no upgrade directive, no HSTS, no Secure cookies
//   https  nonolab terminates TLS itself (NONOLAB_TLS_CERT + NONOLAB_TLS_KEY): helmet's defaults, Secure cookies
//   proxy  a reverse proxy in front (NONOLAB_TRUST_PROXY, NONOLAB_PUBLIC_URL): HSTS, the upgrade directive and Secure
//          cookies exactly when NONOLAB_PUBLIC_URL is https; client addresses come from X-Forwarded-For
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import type { NetworkInterfaceInfo } from 'node:os';
import type { HelmetOptions } from 'helmet';

export type ServingKind = 'http' | 'https' | 'proxy';

export interface Serving {
  kind: ServingKind;
  /** PEM files when nonolab terminates TLS itself. */
  tls: { cert: string; key: string } | null;
  /** Express's `trust proxy`: false, a number of proxy hops, or the proxies' addresses and subnets. */
  trustProxy: false | number | string[];
  /** The address participants open (NONOLAB_PUBLIC_URL), origin only; null when not given. */
  publicUrl: URL | null;
  /** The browser talks https: HSTS, the CSP upgrade directive and `Secure` cookies. */
  secure: boolean;
}

/** A serving setting that cannot work; the message names the variable. */
export class ServingError extends Error {}

/** Plain HTTP, no proxy: what tests and `createNonolabServer` without options get. */
export const PLAIN_HTTP: Serving = { kind: 'http', tls: null, trustProxy: false, publicUrl: null, secure: false };

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * NONOLAB_TRUST_PROXY: `1`, `2`, ... proxy hops in front (`true`/`yes` mean one); or a comma-separated list of the
 * proxies' addresses or subnets (`loopback`, `10.0.0.0/8`, `::1`, ...); empty, `0` or `false` for none.
 */
export function parseTrustProxy(value: string | undefined): false | number | string[] {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === '0' || v === 'false' || v === 'no' || v === 'off') return false;
  if (v === 'true' || v === 'yes' || v === 'on') return 1;
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v.split(',').map((e) => e.trim());
  for (const entry of entries) {
    if (PROXY_NAMES.has(entry)) continue;
    const [address, prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= bits);
    if (!family || !prefixOk || rest.length > 0)
      throw new ServingError(`NONOLAB_TRUST_PROXY: '${entry}' is not a number of hops, an IP address, a subnet (10.0.0.0/8) or one of loopback, linklocal, uniquelocal`);
  }
  return entries;
}

/** NONOLAB_PUBLIC_URL: an http(s) origin; nonolab is served at the root of its host (no path prefix). */
export function parsePublicUrl(value: string | undefined): URL | null {
  const v = (value ?? '').trim();
  if (v === '') return null;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new ServingError(`NONOLAB_PUBLIC_URL: '${v}' is not a URL (write it as https://study.example.org/)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ServingError(`NONOLAB_PUBLIC_URL: '${v}' must start with http:// or https://`);
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password)
    throw new ServingError(`NONOLAB_PUBLIC_URL: '${v}' must be an origin only (scheme, host, port): nonolab is served at the root of its host, not under a path`);
  return new URL(url.origin + '/');
}

/** The serving mode from NONOLAB_TLS_CERT, NONOLAB_TLS_KEY, NONOLAB_TRUST_PROXY and NONOLAB_PUBLIC_URL. */
export function servingFromEnv(env: Record<string, string | undefined>): Serving {
  const cert = env.NONOLAB_TLS_CERT?.trim() || '';
  const key = env.NONOLAB_TLS_KEY?.trim() || '';
  if (!cert !== !key) throw new ServingError('NONOLAB_TLS_CERT and NONOLAB_TLS_KEY go together: set both (PEM files) or neither');
  for (const [name, path] of [['NONOLAB_TLS_CERT', cert], ['NONOLAB_TLS_KEY', key]] as const)
    if (path && !existsSync(path)) throw new ServingError(`${name}: no file at '${path}'`);
  const tls = cert ? { cert, key } : null;
  const trustProxy = parseTrustProxy(env.NONOLAB_TRUST_PROXY);
  const publicUrl = parsePublicUrl(env.NONOLAB_PUBLIC_URL);
  if (tls && publicUrl?.protocol === 'http:')
    throw new ServingError(`NONOLAB_PUBLIC_URL is ${publicUrl.origin} but nonolab serves HTTPS itself (NONOLAB_TLS_CERT): make it https://`);
  const kind: ServingKind = tls ? 'https' : trustProxy !== false || publicUrl?.protocol === 'https:' ? 'proxy' : 'http';
  return { kind, tls, trustProxy, publicUrl, secure: tls !== null || publicUrl?.protocol === 'https:' };
}

/**
 * helmet's options for the mode: its defaults over https; over plain HTTP no `upgrade-insecure-requests`, no HSTS,
 * and no Cross-Origin-Opener-Policy (browsers ignore it on a plain-HTTP origin other than localhost, with a warning).
 */
export function helmetOptions(serving: Serving): HelmetOptions {
  if (serving.secure) return {};
  return {
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
    strictTransportSecurity: false,
    crossOriginOpenerPolicy: false,
  };
}

/** One line for the start-up log: what the mode does. */
export function describeServing(serving: Serving): string {
  switch (serving.kind) {
    case 'http':
      return 'serving plain HTTP (no HSTS, no upgrade to https, cookies without Secure)';
    case 'https':
      return `serving HTTPS (certificate ${serving.tls!.cert}; HSTS, Secure cookies)`;
    case 'proxy': {
      const trust = serving.trustProxy === false ? 'no proxy trusted (set NONOLAB_TRUST_PROXY: every client looks like the proxy)' : `client addresses from X-Forwarded-For (trusting ${Array.isArray(serving.trustProxy) ? serving.trustProxy.join(', ') : `${serving.trustProxy} hop(s)`})`;
      const url = serving.publicUrl ? `public URL ${serving.publicUrl.origin}` : 'no NONOLAB_PUBLIC_URL (cookies without Secure, no HSTS)';
      return `serving behind a reverse proxy: ${url}; ${trust}${serving.secure ? '; HSTS, Secure cookies' : ''}`;
    }
  }
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);
const ANY_HOSTS = new Set(['0.0.0.0', '::', '']);

const hostInUrl = (host: string) => (isIP(host) === 6 ? `[${host}]` : host);

/**
 * The addresses at which this server is reached: its public URL if given; else, for a server listening on every
 * interface (HOST=0.0.0.0 or ::), each non-internal address of the machine (IPv4, and IPv6 global ones for ::), then
 * localhost; else the host it listens on.
 */
export function servedOrigins(serving: Serving, listen: { host: string; port: number }, interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>): string[] {
  if (serving.publicUrl) return [serving.publicUrl.origin];
  const scheme = serving.tls ? 'https' : 'http';
  const at = (host: string) => `${scheme}://${hostInUrl(host)}:${listen.port}`;
  if (LOOPBACK_HOSTS.has(listen.host)) return [at('localhost')];
  if (!ANY_HOSTS.has(listen.host)) return [at(listen.host)];
  const lan: string[] = [];
  for (const infos of Object.values(interfaces))
    for (const info of infos ?? []) {
      if (info.internal) continue;
      if (info.family === 'IPv4') lan.push(info.address);
      else if (listen.host === '::' && !info.address.toLowerCase().startsWith('fe80')) lan.push(info.address);
    }
  return [...new Set(lan)].map(at).concat(at('localhost'));
}

/** What the start-up log says: where participants (a general link, a kiosk) and the experimenter go. */
export function startupLines(serving: Serving, listen: { host: string; port: number }, interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>): string[] {
  const origins = servedOrigins(serving, listen, interfaces);
  const lines = [`nonolab: ${describeServing(serving)}`];
  for (const origin of origins) {
    const local = /\/\/localhost:/.test(origin) && origins.length > 1 ? ' (this machine only)' : '';
    lines.push(`nonolab: participants open ${origin}/  a lab kiosk ${origin}/?mode=kiosk&label=P-001${local}`);
    lines.push(`nonolab: the experimenter opens ${origin}/dashboard${local}`);
  }
  if (serving.kind === 'http' && LOOPBACK_HOSTS.has(listen.host)) lines.push('nonolab: only this machine can connect; set HOST=0.0.0.0 to serve the lab network');
  return lines;
}
