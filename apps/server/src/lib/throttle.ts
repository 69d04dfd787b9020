import { clock } from './time.ts';

/**
 * Counts failures per key in a sliding window. In memory: one server process serves a deployment.
 * Capped so a flood of distinct keys cannot exhaust memory (oldest entries are dropped first).
 */
export class FailureCounter {
  private readonly map = new Map<string, { count: number; first: number }>();
  private readonly windowMs: number;
  private readonly cap: number;
  constructor(windowMs: number, cap = 50_000) {
    this.windowMs = windowMs;
    this.cap = cap;
  }
  count(key: string): number {
    const e = this.map.get(key);
    if (!e) return 0;
    if (clock.now() - e.first > this.windowMs) {
      this.map.delete(key);
      return 0;
    }
    return e.count;
  }
  fail(key: string): number {
    const n = this.count(key) + 1;
    const first = n === 1 ? clock.now() : this.map.get(key)!.first;
    this.map.delete(key);
    this.map.set(key, { count: n, first });
    if (this.map.size > this.cap) this.map.delete(this.map.keys().next().value!);
    return n;
  }
  reset(key: string) {
    this.map.delete(key);
  }
  minutesLeft(key: string): number {
    const e = this.map.get(key);
    return e ? Math.max(1, Math.ceil((this.windowMs - (clock.now() - e.first)) / 60_000)) : 0;
  }
}
