// The browser's Back button in the middle of a puzzle: the page would leave the study, and a participant does not
// know that coming back resumes it. While a board is on screen one history entry of our own sits on top, so Back
// first lands on it (`popstate`) and the page asks: stay, or leave knowing the work is kept. Staying puts the entry
// back; leaving goes back once more, out of the study. Reloads are not asked about (nothing is lost on a reload).
import { useEffect, useState } from 'react';

const GUARD = 'nonolab-back-guard';

export function useBackGuard(active: boolean): { asking: boolean; stay: () => void; leave: () => void } {
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    if (!active) return;
    if ((history.state as { guard?: string } | null)?.guard !== GUARD) history.pushState({ guard: GUARD }, '');
    const onPop = () => setAsking(true);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [active]);
  return {
    asking: active && asking,
    stay: () => {
      history.pushState({ guard: GUARD }, '');
      setAsking(false);
    },
    leave: () => {
      setAsking(false);
      history.back();
    },
  };
}
