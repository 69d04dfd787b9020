/**
 * The people whose faces the demo's terminals keep recognising while the demo runs (demo-terminals.ts, a punch
 * every 45 s or so). Journeys that need people nobody else punches leave these out (e2e/tests/layout.test.ts).
 */
export const DEMO_TRAFFIC_PINS: readonly string[] = ['1001', '1002', '1003', '1004', '1005'];
