import assert from 'node:assert/strict';
import { test } from 'node:test';
// lets aedes's publish pipeline (a few ticks a message) run on
import { setImmediate as turn } from 'node:timers/promises';
import type { AedesPublishPacket, PublishPacket } from 'aedes';
import { newBroker } from './embedded.ts';

/**
 * The embedded broker under a burst (issue #32 item 4): 5,000 breakers dialling at once after a restart ended the
 * server with "Maximum call stack size exceeded". Deliveries to slow clients held aedes's cap of publishes in
 * flight, everything after them queued, and once a slow delivery finished the queue was emptied by recursion, a
 * stack frame set a message. Here the slow deliveries are a subscriber that holds its callbacks (as a client that
 * does not read holds its writes), so the test decides by order of events, not by timing or a fleet's size.
 */

const STALLED = 150; // more than aedes's default cap (100)
const BACKLOG = 20_000; // a few status messages each from 5,000 breakers

const packet = (topic: string): PublishPacket => ({ cmd: 'publish', topic, payload: Buffer.from('{}'), qos: 0, retain: false, dup: false });
/** Turns the event loop until `done`, or until `progress` has not moved in 1,000 turns (then the caller's assertion fails). */
async function settle(done: () => boolean, progress: () => number) {
  for (let idle = 0, last = progress(); !done() && idle < 1000;) {
    await turn();
    const now = progress();
    idle = now === last ? idle + 1 : 0;
    last = now;
  }
}

test('a backlog of publishes behind stalled deliveries drains in full, without overflowing the stack', async () => {
  const broker = newBroker();
  await broker.listen();
  try {
    const held: (() => void)[] = [];
    broker.subscribe(
      'fa/+/rpc',
      (_p: AedesPublishPacket, cb: () => void) => void held.push(cb),
      () => {},
    );
    let delivered = 0;
    broker.subscribe(
      'fa/+/status',
      (_p: AedesPublishPacket, cb: () => void) => {
        delivered++;
        cb();
      },
      () => {},
    );
    await turn();

    // Each message is either with its subscriber or waiting in the broker's queue, none still on its way in.
    const queued = () => (broker as unknown as { mq: { length: number } }).mq.length;
    for (let i = 0; i < STALLED; i++) broker.publish(packet(`fa/slow-${i}/rpc`), () => {});
    await settle(
      () => held.length + queued() >= STALLED,
      () => held.length + queued(),
    );
    for (let i = 0; i < BACKLOG; i++) broker.publish(packet(`fa/b-${i}/status`), () => {});
    await settle(
      () => held.length + delivered + queued() >= STALLED + BACKLOG,
      () => held.length + delivered + queued(),
    );

    // The slow clients read again: whatever waited behind them runs now, on this stack.
    assert.doesNotThrow(() => {
      for (const cb of held.splice(0)) cb();
    });
    await settle(
      () => delivered >= BACKLOG,
      () => delivered,
    );
    assert.equal(delivered, BACKLOG);
    assert.equal(queued(), 0);
  } finally {
    await new Promise<void>((r) => broker.close(() => r()));
  }
});
