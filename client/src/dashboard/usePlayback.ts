// A playback clock for replays: play/pause, speed and seeking over [0, duration], driven by animation frames.
import { useCallback, useEffect, useRef, useState } from 'react';

export interface Playback {
  t: number;
  playing: boolean;
  speed: number;
  play(): void;
  pause(): void;
  seek(t: number): void;
  setSpeed(speed: number): void;
}

export function usePlayback(duration: number): Playback {
  const [t, setT] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const tRef = useRef(0);
  tRef.current = t;

  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let frame = requestAnimationFrame(function tick(now) {
      const next = Math.min(duration, tRef.current + (now - last) * speed);
      last = now;
      setT(next);
      if (next >= duration) setPlaying(false);
      else frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [playing, speed, duration]);

  const play = useCallback(() => {
    if (tRef.current >= duration) setT(0);
    setPlaying(true);
  }, [duration]);
  const pause = useCallback(() => setPlaying(false), []);
  const seek = useCallback((v: number) => setT(Math.max(0, Math.min(duration, v))), [duration]);
  return { t, playing, speed, play, pause, seek, setSpeed };
}
