// The puzzle board, loaded on demand: the first screen (consent) does not need it, so the participant page's first
// load stays small on a plain-HTTP lab network (docs/deploy.md). It is fetched as soon as the page has shown
// (`preloadPuzzleView`), long before the tutorial needs it.
import { Suspense, lazy } from 'react';
import type { PuzzleViewProps } from './PuzzleView.tsx';

const load = () => import('./PuzzleView.tsx');
const PuzzleViewChunk = lazy(async () => ({ default: (await load()).PuzzleView }));

/** Start fetching the board's code now (the consent was answered); idempotent. */
export function preloadPuzzleView(): void {
  void load();
}

export function PuzzleView(props: PuzzleViewProps) {
  return (
    <Suspense fallback={<p className="page-body">Loading the puzzle…</p>}>
      <PuzzleViewChunk {...props} />
    </Suspense>
  );
}
