// Where the participant API of the page's study lives: /s/<slug>/api for a study's own link, /api for the first study.
export function apiBaseFor(pathname: string): string {
  const m = /^\/s\/([a-z0-9][a-z0-9-]{0,39})(\/|$)/.exec(pathname);
  return m ? `/s/${m[1]}` : '';
}
