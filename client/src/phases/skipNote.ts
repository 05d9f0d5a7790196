// The note under a disabled Skip: a countdown to when it is allowed (issue 32), or the rule before the clock runs.
import { formatClock } from '../../../shared/study/timing.ts';
import { t } from '../i18n.ts';

export function skipNoteText(skipMinSeconds: number, waitSeconds: number | null): string | undefined {
  if (skipMinSeconds <= 0) return undefined;
  if (waitSeconds === null) return skipMinSeconds >= 60 ? t('puzzle.skipAfterMin', { minutes: Math.round(skipMinSeconds / 60) }) : t('puzzle.skipAfter', { seconds: skipMinSeconds });
  return waitSeconds >= 60 ? t('puzzle.skipInMin', { time: formatClock(waitSeconds) }) : t('puzzle.skipIn', { seconds: waitSeconds });
}
