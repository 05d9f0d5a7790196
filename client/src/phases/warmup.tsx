// Phase kind 'warmup': a real puzzle with a visible countdown; at the cap the controller moves on by itself.
import { PuzzleView } from '../board/LazyPuzzleView.tsx';
import type { PhaseModule, PhaseScreenProps } from './types.ts';
import { useInputText } from '../study.ts';
import { t } from '../i18n.ts';

function WarmupScreen({ step, phase }: PhaseScreenProps<'warmup'>) {
  const text = useInputText(phase.text);
  const intro = text ? <p className="instructions">{text}</p> : null;
  return <PuzzleView step={step} title={phase.title} progress={t('board.practice')} intro={intro} canSkip />;
}

export const warmupPhase: PhaseModule<'warmup'> = { kind: 'warmup', Screen: WarmupScreen };
