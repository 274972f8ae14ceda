/** The WhatsApp channel over corrupt stored state in Redis: the user's message still gets through. */
import { Registry } from 'prom-client';
import type { RedisClientType } from 'redis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWhatsAppChannel, type WhatsAppChannel } from '../../../src/channels/whatsapp/index.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../../helpers/redis.js';
import { message, RecordingSocket, recordingConversation, silent, testI18n, waitFor } from './helpers.js';

const PHONE = '254712345678';
const JID = `${PHONE}@s.whatsapp.net`;

describe('WhatsApp with corrupt stored state', () => {
  let redis: RedisClientType;
  let prefix: string;
  let channel: WhatsAppChannel | undefined;

  beforeEach(async () => {
    redis = await connectTestRedis();
    prefix = uniquePrefix('wastate');
  });

  afterEach(async () => {
    await channel?.stop();
    await flushPrefix(redis, prefix);
    await redis.quit();
  });

  it.each([
    ['not JSON', '{"buttons": [['],
    ['JSON of the wrong shape', '[1, 2, 3]'],
  ])('reads a stored menu that is %s as no menu: the text goes to the conversation', async (_name, raw) => {
    const conversation = recordingConversation();
    const sockets: RecordingSocket[] = [];
    channel = createWhatsAppChannel({
      conversation,
      i18n: testI18n(),
      redis,
      logger: silent,
      keyPrefix: prefix,
      numberId: 'bot',
      registry: new Registry(),
      pacing: { intervalMs: 40, jitterMs: 10 },
      makeSocket: (config) => {
        const s = new RecordingSocket(config);
        sockets.push(s);
        return s;
      },
    });
    await channel.start();
    await waitFor(() => channel?.state === 'open', 5000, 'open');
    await redis.set(`${prefix}bot:menu:${PHONE}`, raw);
    sockets.at(-1)!.receive(message(JID, '1'));
    await waitFor(() => conversation.handled.length === 1, 5000, 'the message handled');
    expect(conversation.handled[0]!.input).toEqual({ kind: 'text', text: '1' });
  });
});
