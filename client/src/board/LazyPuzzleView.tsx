// The puzzle board, loaded on demand: the first screen (consent) does not need it, so the participant page's first
// load stays small on a plain-HTTP lab network (docs/deploy.md). It is fetched a moment after the first screen has
// shown, and at once when the participant agrees to the consent (`preloadPuzzleView`), well before the tutorial needs
// it; App.tsx's Suspense shows "Loading the puzzle…" (and names no step) while it may still be on its way, e.g. after a
// reload on a board step. A failed fetch (the network dropped) is tried again until it arrives.
import { lazy } from 'react';

type Chunk = typeof import('./PuzzleView.tsx');
let chunk: Promise<Chunk> | null = null;

function load(): Promise<Chunk> {
  chunk ??= import('./PuzzleView.tsx').catch((err: unknown) => {
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
