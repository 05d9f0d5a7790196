// Dashboard routes in the URL hash (#/, #/session/<id>, #/session/<id>/replay/<step>, #/pool, #/recruitment, #/find[/<text>], #/overview, #/exports, #/studies).

export type Route =
  | { page: 'live' }
  | { page: 'session'; id: string }
  | { page: 'replay'; id: string; step: number }
  | { page: 'pool' }
  | { page: 'recruitment' }
  | { page: 'find'; q: string }
  | { page: 'overview' }
  | { page: 'exports' }
  | { page: 'studies' };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'session' && parts[1] && parts[2] === 'replay' && /^\d+$/.test(parts[3] ?? '')) return { page: 'replay', id: parts[1], step: Number(parts[3]) };
  if (parts[0] === 'session' && parts[1]) return { page: 'session', id: parts[1] };
  if (parts[0] === 'recruitment') return { page: 'recruitment' };
  if (parts[0] === 'find') return { page: 'find', q: parts[1] ?? '' };
  if (parts[0] === 'pool' || parts[0] === 'overview' || parts[0] === 'exports' || parts[0] === 'studies') return { page: parts[0] };
  return { page: 'live' };
}
