/// <reference types="vite/client" />
// The puzzle board, its code and its styles (board.css), loaded on demand: the first screen (consent) does not need them, so the participant page's first
// load stays small on a plain-HTTP lab network (docs/deploy.md). It is fetched a moment after the first screen has
// shown, and at once when the participant agrees to the consent (`preloadPuzzleView`), well before the tutorial needs
// it; App.tsx's Suspense shows "Loading the puzzle…" (and names no step) while it may still be on its way, e.g. after a
// reload on a board step. A failed fetch (the network dropped) is tried again until it arrives.
import { lazy } from 'react';
import boardCss from './board.css?url';
import { loadStepWords } from '../i18n.ts';

type Chunk = typeof import('./PuzzleView.tsx');
let chunk: Promise<Chunk> | null = null;

/**
 * The board's stylesheet, added here rather than imported by PuzzleView.tsx: Vite's own loader would add it once and,
 * should that fetch fail, never again in the page's life (the board would then show unstyled). A failed <link> is
 * removed, so the next try adds it afresh.
 */
function stylesheet(href: string): Promise<void> {
  const present = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].find((l) => l.getAttribute('href') === href);
  if (present?.sheet) return Promise.resolve();
  present?.remove();
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  return new Promise((resolve, reject) => {
    link.onload = () => resolve();
    link.onerror = () => {
      link.remove();
      reject(new Error(`the board's stylesheet did not load (${href})`));
    };
    document.head.appendChild(link);
  });
}

function load(): Promise<Chunk> {
  // The English words of the steps after consent come beside it (client/src/i18n.ts): the first load has only the first screens'.
  chunk ??= Promise.all([import('./PuzzleView.tsx'), stylesheet(boardCss), loadStepWords()])
    .then(([view]) => view)
    .catch((err: unknown) => {
      chunk = null;
      throw err;
    });
  return chunk;
}

/** Start fetching the board's code now; idempotent, and quiet if it fails (it is tried again when needed). */
export function preloadPuzzleView(): void {
  load().catch(() => {});
}

export const PuzzleView = lazy(async () => {
  for (let delay = 500; ; delay = Math.min(delay * 2, 8_000)) {
    try {
      return { default: (await load()).PuzzleView };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
});
