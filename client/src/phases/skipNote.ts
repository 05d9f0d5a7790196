// The note under a disabled Skip: a countdown to when it is allowed (issue 32), or the rule before the clock runs.
import { formatClock } from '../../../shared/study/timing.ts';

export function skipNoteText(skipMinSeconds: number, waitSeconds: number | null): string | undefined {
  if (skipMinSeconds <= 0) return undefined;
  if (waitSeconds === null) return `You can skip after ${skipMinSeconds >= 60 ? `${Math.round(skipMinSeconds / 60)} min` : `${skipMinSeconds} s`}.`;
  return `You can skip in ${waitSeconds >= 60 ? `${formatClock(waitSeconds)} min` : `${waitSeconds} s`}.`;
}
