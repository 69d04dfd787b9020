/**
 * Colours of health records whose punch is not stored yet (a terminal that sent HEALTHLOG before ATTLOG):
 * the punch takes its colour when it arrives, so the hot path of punch ingestion never queries for it.
 */
export function healthWaiting() {
  const waiting = new Map<string, string>();
  const key = (deviceId: number, pin: string, localTime: string) => `${deviceId}/${pin}/${localTime}`;
  return {
    add(deviceId: number, pin: string, localTime: string, color: string) {
      waiting.set(key(deviceId, pin, localTime), color);
      if (waiting.size > 10_000) waiting.delete(waiting.keys().next().value!);
    },
    /** The colour waiting for this punch (taking it), or null (at once when none waits). */
    claim(deviceId: number, pin: string, localTime: string): string | null {
      if (!waiting.size) return null;
      const k = key(deviceId, pin, localTime);
      const color = waiting.get(k) ?? null;
      waiting.delete(k);
      return color;
    },
  };
}
export type HealthWaiting = ReturnType<typeof healthWaiting>;
