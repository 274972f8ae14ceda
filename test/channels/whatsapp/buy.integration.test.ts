/**
 * A whole buy over WhatsApp: messages enter through baileys' event emitter (recording socket), the
 * real engine and flows keep the session in Redis, the real ramp client talks to the in-process
 * sandbox. Choices are answered like a person would: with the menu number, or with its words.
 */
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/app/flows.js';
import { createWhatsAppChannel, type WhatsAppChannel } from '../../../src/channels/whatsapp/index.js';
import type { Engine } from '../../../src/engine/index.js';
import { displayPhone } from '../../../src/flows/index.js';
import { type I18n, loadI18n } from '../../../src/i18n/index.js';
import { createLogger } from '../../../src/log/logger.js';
import { createRampClient } from '../../../src/ramp/index.js';
import type { RampClient } from '../../../src/ramp/types.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { createRedisStore, type SessionStore } from '../../../src/store/index.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../../helpers/redis.js';
import { message, RecordingSocket, waitFor } from './helpers.js';

const WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const PHONE = '254712345678';
const JID = `${PHONE}@s.whatsapp.net`;

let sandbox: Sandbox;
let ramp: RampClient;
let redis: RedisClientType;
let store: SessionStore;
let engine: Engine;
let channel: WhatsAppChannel;
let socket: RecordingSocket;
let i18n: I18n;
const prefix = uniquePrefix('wabuy');

beforeAll(async () => {
  const logger = createLogger({ level: 'silent' });
  sandbox = await startSandbox({ port: 0, settleMs: 60_000 });
  ramp = createRampClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.options.apiKey,
    apiSecret: sandbox.options.apiSecret,
    timeoutMs: 5000,
  });
  redis = await connectTestRedis();
  store = await createRedisStore({ url: testRedisUrl(), prefix, flowTtlSeconds: 600 });
  engine = createEngine({ store, ramp, logger, config: { rateTolerancePct: 1, project: 'rampchat-test' } });
  i18n = loadI18n();
  channel = createWhatsAppChannel({
    conversation: engine,
    i18n,
    redis,
    logger,
    keyPrefix: prefix,
    numberId: 'bot',
    pacing: { intervalMs: 15, jitterMs: 5 },
    makeSocket: (config) => {
      socket = new RecordingSocket(config);
      return socket;
    },
  });
  engine.registerChannel(channel.adapter);
  await channel.start();
  await waitFor(() => channel.state === 'open');
});

afterAll(async () => {
  await channel?.stop();
  await engine?.idle();
  await store?.close();
  await sandbox?.close();
  if (redis) {
    await flushPrefix(redis, prefix);
    await redis.quit();
  }
});

/** Waits for a message sent after the `after`-th whose menu offers a choice with a matching id. */
async function waitForChoice(match: RegExp, after: number): Promise<{ number: number; label: string }> {
  return waitFor(
    async () => {
      if (socket.sent.length <= after) return undefined;
      const raw = await redis.get(`${prefix}bot:menu:${PHONE}`);
      const items: { id: string; label: string }[] = raw ? JSON.parse(raw).items : [];
      const index = items.findIndex((item) => match.test(item.id));
      if (index < 0) return undefined;
      expect(socket.sent.at(-1)!.text).toContain(`*${index + 1}.* ${items[index]!.label}`);
      return { number: index + 1, label: items[index]!.label };
    },
    8000,
    `a choice ${match}`,
  );
}

describe('buying through WhatsApp', () => {
  it('goes from hello to the STK push once, despite a redelivered message and a double Confirm', async () => {
    socket.receive(message(JID, 'hi'));
    const buy = await waitForChoice(/^menu:buy$/, 0);

    let seen = socket.sent.length;
    socket.receive(message(JID, String(buy.number)));
    const amount = await waitForChoice(/^buy:amt:1000$/, seen);

    seen = socket.sent.length;
    socket.receive(message(JID, amount.label.toUpperCase()));
    const token = await waitForChoice(/^buy:tok:USDT$/, seen);

    seen = socket.sent.length;
    socket.receive(message(JID, `${token.number}.`));
    const network = await waitForChoice(/^buy:net:polygon$/, seen);

    seen = socket.sent.length;
    socket.receive(message(JID, String(network.number)));
    await waitFor(() => socket.sent.length > seen, 8000, 'the wallet question');
    expect(socket.sent.at(-1)!.text).toContain(
      i18n.t('en', { id: 'buy-ask-wallet', args: { network: 'Polygon' } }),
    );

    // The number the user writes from is offered as the M-Pesa number.
    seen = socket.sent.length;
    socket.receive(message(JID, WALLET));
    const phone = await waitForChoice(/^buy:phone:saved$/, seen);
    expect(phone.label).toContain(displayPhone(PHONE));

    seen = socket.sent.length;
    socket.receive(message(JID, String(phone.number)));
    const confirm = await waitForChoice(/^buy:confirm:/, seen);
    expect(socket.sent.at(-1)!.text).toContain(WALLET);

    // Double Confirm: two messages answering the same menu, back to back.
    const first = message(JID, String(confirm.number));
    socket.receive(first, message(JID, confirm.label));
    const stkText = async () => {
      const records = (await ramp.getHistory('onramp', WALLET)).records;
      const orderId = records[0]?.orderId ?? records[0]?.id;
      if (!orderId) return undefined;
      const stk = i18n.t('en', { id: 'buy-stk-sent', args: { orderId, phone: displayPhone(PHONE) } });
      return socket.sent.some((s) => s.text.includes(stk)) ? stk : undefined;
    };
    await waitFor(stkText, 8000, 'the STK push message');
    await channel.idle();
    await engine.idle();
    // Both answered the Confirm menu: one STK push, and the second only hears that it is on its way.
    expect(socket.sent.filter((s) => s.text.includes(i18n.t('en', { id: 'buy-never-pin' })))).toHaveLength(1);
    const placed = (await ramp.getHistory('onramp', WALLET)).records;
    expect(placed).toHaveLength(1);
    const orderId = placed[0]!.orderId ?? placed[0]!.id!;
    expect(sandbox.order(orderId)).toMatchObject({ phone: PHONE });
    // Nothing is released before M-Pesa settles (the sandbox holds the payment for a minute).
    expect(sandbox.depositCallCount(orderId)).toBe(0);

    // WhatsApp delivers the first Confirm again: the engine drops it by message id.
    const sentBefore = socket.sent.length;
    socket.receive(first);
    await channel.idle();
    await engine.idle();
    expect(socket.sent.length).toBe(sentBefore);
    expect((await ramp.getHistory('onramp', WALLET)).records).toHaveLength(1);
    expect(socket.sent.every((s) => s.jid === JID)).toBe(true);
  });
});
