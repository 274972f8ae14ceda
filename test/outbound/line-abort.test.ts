/**
 * A message given up (its replica stopping) while its slot is being asked for: the slot the book
 * answered with is given back. Kept, the chat's next message would wait for it on every replica (a
 * stopping replica's slow line held its chat's lane a minute: test/outbound/outbox-wake.test.ts).
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createOutboundLine } from '../../src/outbound/index.js';
import type { Booking, Reservation, SlotBook } from '../../src/outbound/reserve.js';
import { waitFor } from '../helpers/wait.js';

describe('the outbound line', () => {
  it('gives back the slot of a message given up while its slot was asked for', async () => {
    const asked: Array<(r: Reservation) => void> = [];
    const given: Booking[][] = [];
    const book: SlotBook = {
      reserve: () => new Promise((answer) => asked.push(answer)),
      hold: async () => {},
      giveBack: async (bookings) => {
        given.push(bookings);
      },
    };
    const line = createOutboundLine({ line: [{ key: 'bot', intervalMs: 10, burst: 1 }], book });
    const stop = new AbortController();
    const sent: string[] = [];
    const m = { key: 'chat', cls: 'reply' as const, own: [] };
    const run = line.run(m, async () => sent.push('sent'), stop.signal);
    await waitFor('the slot asked for', () => asked.length === 1, 2_000);
    stop.abort(new Error('stopping'));
    await expect(run).rejects.toThrow('stopping');
    const booking = { key: 'chat-lane', from: 1_000, to: 61_000 };
    asked[0]?.({ kind: 'go', waitMs: 60_000, booked: [booking] });
    await waitFor('the slot given back', () => given.length === 1, 2_000);
    expect(given).toEqual([[booking]]);
    expect(sent).toEqual([]);
  });

  it('listens for an abort only while a message waits in the queue, and stops listening once it is settled', async () => {
    const book: SlotBook = {
      reserve: async () => ({ kind: 'go', waitMs: 0, booked: [] }),
      hold: async () => {},
      giveBack: async () => {},
    };
    const line = createOutboundLine({ line: [{ key: 'bot', intervalMs: 1, burst: 1 }], book });
    const stop = new AbortController();
    const listeners = () => getEventListeners(stop.signal, 'abort').length;
    const m = { key: 'chat', cls: 'reply' as const, own: [] };
    // Prebooked and due at once: on its way without waiting in the queue, so never listened for.
    const pre = line.prebook(m)!;
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let started = false;
    const first = line.run(
      m,
      () => {
        started = true;
        return held.then(() => 'first');
      },
      stop.signal,
      pre,
    );
    await waitFor('the first on its way', () => started, 2_000);
    expect(listeners()).toBe(0);
    // The chat's next message waits in the queue behind it: listened for, and failed by the abort.
    const second = line.run(m, async () => 'second', stop.signal);
    expect(listeners()).toBe(1);
    stop.abort(new Error('stopping'));
    await expect(second).rejects.toThrow('stopping');
    expect(listeners()).toBe(0);
    release();
    await expect(first).resolves.toBe('first');
  });
});
