// A database URL as the commands read and print it; no driver loaded (the analysis of a logs directory needs neither pg nor SQLite).

/** True when `url` names a PostgreSQL database. */
export function isPostgresUrl(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//.test(url);
}

/** A URL as it may be printed: the password left out. */
export const redactUrl = (url: string): string => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
