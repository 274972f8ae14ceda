/**
 * Each API call's signal: aborted at the call's deadline or at the channel's stop; a signal that ended
 * unaborted with nothing listening is handed to a later call (cheaper than a new one), and an aborted
 * or still-listened-to one never is.
 */
import { describe, expect, it, vi } from 'vitest';
import { boundedCalls } from '../../../src/channels/telegram/api.js';
import { ownCall } from '../../../src/channels/telegram/send/call.js';

const never = (signal: AbortSignal) =>
  new Promise((_, reject) =>
    signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
  );

describe("the channel's bounded calls", () => {
  it('reuse only a signal that ended clean, and abort at the deadline and at the stop', async () => {
    const { bounded, abortAll } = boundedCalls(50);
    const signals: AbortSignal[] = [];
    const keep = (signal: unknown) => {
      signals.push(signal as AbortSignal);
      return signal as AbortSignal;
    };

    await bounded(async (s) => keep(s));
    await bounded(async (s) => keep(s));
    expect(signals[1]).toBe(signals[0]);

    // Past its deadline: aborted, and not handed on.
    await expect(bounded((s) => never(keep(s)))).rejects.toThrow('aborted');
    expect(signals[2]!.aborted).toBe(true);
    await bounded(async (s) => keep(s));
    expect(signals[3]).not.toBe(signals[2]);
    expect(signals[3]!.aborted).toBe(false);

    // Something still listens after the call: not handed on either.
    await bounded(async (s) => {
      keep(s).addEventListener('abort', () => {});
    });
    await bounded(async (s) => keep(s));
    expect(signals[5]).not.toBe(signals[4]);

    // The stop aborts a call in flight.
    const pending = bounded((s) => never(keep(s)));
    abortAll();
    await expect(pending).rejects.toThrow('aborted');
  });

  it('holds no deadline while paused, a full one from each resume, on one ticker for all calls', async () => {
    const { bounded } = boundedCalls(100);
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    let resumedAt = 0;
    const outcome = bounded(async (s) => {
      const signal = s as unknown as AbortSignal;
      const deadline = ownCall(signal)?.deadline;
      expect(deadline).toBeDefined();
      deadline?.pause();
      await sleep(250);
      expect(signal.aborted).toBe(false);
      deadline?.resume();
      resumedAt = Date.now();
      await never(signal);
    });
    await expect(outcome).rejects.toThrow('aborted');
    expect(Date.now() - resumedAt).toBeGreaterThanOrEqual(90);

    // Calls share one ticker: a paced send's pause and resume at its turn, and the calls themselves,
    // arm no timer of their own.
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    const setTicker = vi.spyOn(globalThis, 'setInterval');
    try {
      await Promise.all(
        [1, 2, 3].map(() =>
          bounded(async (s) => {
            ownCall(s)?.deadline.pause();
            await Promise.resolve();
            ownCall(s)?.deadline.resume();
          }),
        ),
      );
      expect(setTimer).not.toHaveBeenCalled();
      expect(setTicker.mock.calls.length).toBeLessThanOrEqual(1);
    } finally {
      setTimer.mockRestore();
      setTicker.mockRestore();
    }
  });
});
