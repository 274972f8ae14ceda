/**
 * Issue #24: the baileys channel's stop is bounded. A paced backlog (one chat, one message every
 * 400 ms) used to hold stop() until every message had waited for a socket that the stop itself had
 * ended (up to a minute each); now what still waits for its turn is left at once. Issue #31: left in
 * the number's outbox, not lost: the next instance to hold the number sends every one, once, in order.
 */
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWhatsAppChannel } from '../../../src/channels/whatsapp/index.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../../helpers/redis.js';
import { message, RecordingSocket, recordingConversation, silent, testI18n, waitFor } from './helpers.js';

const PHONE = '254712345679';
const JID = `${PHONE}@s.whatsapp.net`;
let redis: RedisClientType;
const prefix = uniquePrefix('wa-stop');

beforeAll(async () => {
  redis = await connectTestRedis();
});
afterAll(async () => {
  await flushPrefix(redis, prefix);
  await redis.quit();
});

/** The number's channel on this test's keys, pacing one chat every `intervalMs`; `opened` gets its socket. */
const baileys = (
  conversation: ReturnType<typeof recordingConversation>,
  intervalMs: number,
  opened: (s: RecordingSocket) => void,
) =>
  createWhatsAppChannel({
    conversation,
    i18n: testI18n(),
    redis,
    logger: silent,
    keyPrefix: prefix,
    numberId: 'bot',
    pacing: { intervalMs, jitterMs: 1 },
    makeSocket: (config) => {
      const s = new RecordingSocket(config);
      opened(s);
      return s;
    },
  });

describe('stopping the WhatsApp (baileys) channel', () => {
  it('returns quickly with a paced backlog, and sends nothing after', async () => {
    let socket: RecordingSocket | undefined;
    const sends: Promise<unknown>[] = [];
    const conversation = recordingConversation(async (user) => {
      for (let i = 0; i < 20; i++)
        sends.push(
          channel.adapter
            .send(user.id, { texts: [{ id: 'wa-test-question', args: { amount: i } }] }, 'en')
            .catch(() => undefined),
        );
    });
    const channel = baileys(conversation, 400, (s) => {
      socket = s;
    });
    await channel.start();
    await waitFor(() => channel.state === 'open', 5000, 'open');
    socket!.receive(message(JID, 'hi'));
    await waitFor(() => socket!.sent.length >= 1, 5000, 'the first message');
    const started = Date.now();
    await channel.stop();
    expect(Date.now() - started).toBeLessThan(3000);
    await Promise.allSettled(sends);
    const sent = socket!.sent.length;
    expect(sent).toBeLessThan(20);
    await new Promise((r) => setTimeout(r, 500));
    expect(socket!.sent.length).toBe(sent);

    // The next instance takes the number: the rest of the backlog goes from it.
    let next: RecordingSocket | undefined;
    const successor = baileys(
      recordingConversation(async () => {}),
      50,
      (s) => {
        next = s;
      },
    );
    await successor.start();
    try {
      await waitFor(() => next && sent + next.sent.length >= 20 && next, 10_000, 'the rest of the backlog');
      await new Promise((r) => setTimeout(r, 300));
      const texts = [...socket!.sent, ...next!.sent].map((m) => m.text);
      expect(texts).toEqual(Array.from({ length: 20 }, (_, i) => `Buy ${i} KES?`));
    } finally {
      await successor.stop();
    }
  }, 30_000);
});
