import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * The guard desk's alarm sound (spec §3 Company alarmRing): three short beeps through WebAudio (nothing to
 * download). Browsers start audio only after a user gesture: until then `blocked` is true and the screen offers a
 * one-click "enable sound" button (any click or key press on the page unlocks it as well).
 */
export function useAlarmSound(enabled: boolean): { blocked: boolean; unlock: () => void; ring: () => void } {
  const ctx = useRef<AudioContext | null>(null);
  const [blocked, setBlocked] = useState(false);

  const unlock = useCallback(() => {
    try {
      ctx.current ??= new AudioContext();
      const c = ctx.current;
      if (c.state === 'suspended') void c.resume().then(() => setBlocked(c.state !== 'running'));
      else setBlocked(c.state !== 'running');
    } catch {
      ctx.current = null;
    }
  }, []);

  useEffect(() => {
    if (!enabled) return;
    let c: AudioContext;
    try {
      c = ctx.current ??= new AudioContext();
    } catch {
      return;
    }
    const update = () => setBlocked(c.state !== 'running');
    c.addEventListener('statechange', update);
    // A context made before any gesture starts suspended; some browsers let it run at once (autoplay allowed).
    void c.resume().catch(() => undefined);
    const t = setTimeout(update, 300);
    window.addEventListener('pointerdown', unlock, { capture: true });
    window.addEventListener('keydown', unlock, { capture: true });
    return () => {
      clearTimeout(t);
      c.removeEventListener('statechange', update);
      window.removeEventListener('pointerdown', unlock, { capture: true });
      window.removeEventListener('keydown', unlock, { capture: true });
    };
  }, [enabled, unlock]);

  useEffect(
    () => () => {
      void ctx.current?.close().catch(() => undefined);
      ctx.current = null;
    },
    [],
  );

  const ring = useCallback(() => {
    if (!enabled) return;
    // Counted on window for the browser journey (as the breaker pages' ring is).
    const w = window as unknown as { __faGuardRings?: number };
    w.__faGuardRings = (w.__faGuardRings ?? 0) + 1;
    const c = ctx.current;
    if (!c || c.state !== 'running') return;
    const start = c.currentTime;
    for (const at of [0, 0.22, 0.44]) {
      const osc = c.createOscillator();
      const gain = c.createGain();
      osc.type = 'square';
      osc.frequency.value = at === 0.22 ? 660 : 988;
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.18, start + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + 0.18);
      osc.connect(gain).connect(c.destination);
      osc.start(start + at);
      osc.stop(start + at + 0.2);
    }
  }, [enabled]);

  return { blocked: enabled && blocked, unlock, ring };
}
