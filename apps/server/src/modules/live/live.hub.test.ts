import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Rights } from '@faceadmin/shared';
import { createLiveHub, type Subscriber, type WireEvent } from './live.hub.ts';

/** A console of company 1 that may see punches: what it was written, in order. */
function consoleOf(): Subscriber & { frames: string[] } {
  const frames: string[] = [];
  return {
    frames,
    companyId: 1,
    adminId: 1,
    sessionId: 1,
    rights: {} as Rights,
    topics: new Set(['punch']),
    write: (f) => (frames.push(f), true),
    end: () => undefined,
    expireBy: () => undefined,
  };
}

/** A punch event whose data counts how often it is serialized. */
function punch(n: number, serialized: { count: number }): WireEvent {
  return {
    id: `e${n}`,
    companyId: 1,
    type: 'punch',
    rights: [],
    adminId: null,
    data: {
      toJSON() {
        serialized.count++;
        return { n };
      },
    },
  };
}

const ids = (frames: string[]) => frames.map((f) => /^id: (\S*)/.exec(f)?.[1]);

test('an event is serialized only when a console receives it, and once however many do', () => {
  const hub = createLiveHub();
  const serialized = { count: 0 };
  hub.deliver(punch(1, serialized));
  assert.equal(serialized.count, 0, 'nobody watches company 1 on this instance: nothing to write');
  const a = consoleOf();
  const b = consoleOf();
  hub.subscribe(a);
  hub.subscribe(b);
  hub.deliver(punch(2, serialized));
  assert.equal(serialized.count, 1, 'one frame for both consoles');
  assert.deepEqual(ids(a.frames), ['e2']);
  assert.deepEqual(b.frames, a.frames);
  // a console reconnecting after e1 is replayed e2 from the window, with the frame already made
  const c = consoleOf();
  hub.subscribe(c, 'e1');
  assert.deepEqual(ids(c.frames), ['e2']);
  assert.equal(serialized.count, 1);
  assert.match(c.frames[0]!, /data: \{"n":2\}/);
});

test('the replay window keeps exactly its size for a reconnect, though it is trimmed in bulk', () => {
  const hub = createLiveHub({ windowSize: 3 });
  const serialized = { count: 0 };
  for (let n = 1; n <= 10; n++) hub.deliver(punch(n, serialized));
  // e7 fell out of the newest three (e8, e9, e10): the console refetches, resuming from the newest
  const late = consoleOf();
  hub.subscribe(late, 'e7');
  assert.equal(late.frames.length, 1);
  assert.match(late.frames[0]!, /^id: e10\nevent: reset\n/);
  const recent = consoleOf();
  hub.subscribe(recent, 'e8');
  assert.deepEqual(ids(recent.frames), ['e9', 'e10']);
});

test('events older than the window’s age are not replayed', (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
  const hub = createLiveHub({ windowMs: 50 });
  const serialized = { count: 0 };
  hub.deliver(punch(1, serialized));
  hub.deliver(punch(2, serialized));
  t.mock.timers.tick(60);
  const c = consoleOf();
  hub.subscribe(c, 'e1');
  assert.match(c.frames[0]!, /event: reset/, 'e2 is older than the window: the console refetches');
});
