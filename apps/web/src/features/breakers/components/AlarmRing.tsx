import { useEffect, useRef } from 'react';
import { useUserInfo } from '../../../lib/session.ts';
import { useUnreadCount } from '../../messages/api.ts';
import { latestUnread } from '../api.ts';
import { alarmRingOn, newBreakerAlarms } from '../logic.ts';

let audio: AudioContext | null = null;

/**
 * Browsers start audio only after a user gesture: the context is made (or resumed) on the first click or key
 * press, and a ring before that is skipped silently (the bell still counts the message).
 */
function unlockAudio() {
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume();
  } catch {
    audio = null;
  }
}

/** Two short beeps (WebAudio, nothing to download). Exposed on window for the browser journey to count. */
function ring() {
  const w = window as unknown as { __faBreakerRings?: number };
  w.__faBreakerRings = (w.__faBreakerRings ?? 0) + 1;
  if (!audio || audio.state !== 'running') return;
  const start = audio.currentTime;
  for (const at of [0, 0.25]) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = 'square';
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(0.15, start + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + 0.18);
    osc.connect(gain).connect(audio.destination);
    osc.start(start + at);
    osc.stop(start + at + 0.2);
  }
}

/**
 * spec §3 Company alarmRing: with the company's option on, a new breaker alarm (a `breakerAlarm` message reaching
 * the bell) plays a short sound. It rides on the bell's own poll: the unread list is read only when the count moves.
 */
export function AlarmRing() {
  const user = useUserInfo().data;
  const enabled = alarmRingOn(user);
  const count = useUnreadCount(enabled).data?.count;
  const seen = useRef<number | null>(null);
  const lastCount = useRef<number | undefined>(undefined);

  useEffect(() => {
    if (!enabled) return;
    window.addEventListener('pointerdown', unlockAudio, { once: true, capture: true });
    window.addEventListener('keydown', unlockAudio, { once: true, capture: true });
    return () => {
      window.removeEventListener('pointerdown', unlockAudio, { capture: true });
      window.removeEventListener('keydown', unlockAudio, { capture: true });
    };
  }, [enabled]);

  useEffect(() => {
    if (!enabled || count === undefined) return;
    const before = lastCount.current;
    lastCount.current = count;
    // The first count only takes note of what is there; afterwards only a rise can bring a new alarm.
    if (seen.current !== null && before !== undefined && count <= before) return;
    void latestUnread()
      .then((page) => {
        const r = newBreakerAlarms(page.items, seen.current);
        seen.current = r.seen;
        if (r.ring) ring();
      })
      .catch(() => {
        // the bell shows the count anyway
      });
  }, [enabled, count]);

  useEffect(() => {
    if (!enabled) seen.current = null;
  }, [enabled]);

  return null;
}
