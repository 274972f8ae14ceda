/**
 * Issue #32: an agent's reply to a WhatsApp user outside the 24-hour window, on the fake Graph API.
 * It goes as the approved template in the user's language, the topic says so (not "Delivered"),
 * the full reply goes once when the user writes again and the topic says that too; the card shows
 * the user's language and whether they last read a template or the whole message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createWhatsAppCloudChannel,
  type WhatsAppCloudChannel,
} from '../../src/channels/whatsapp-cloud/index.js';
import { cloudKeys } from '../../src/channels/whatsapp-cloud/keys.js';
import type { HttpServer } from '../../src/http/index.js';
import {
  APP_SECRET,
  PHONE_NUMBER_ID,
  replicaOptions,
  serveReplica,
  TOKEN,
} from '../channels/whatsapp-cloud/helpers.js';
import { FakeWhatsAppGraphApi, type SentMessage } from '../fakes/whatsapp-graph-api.js';
import { AGENT, type Rig, SUPPORT_CHAT, startRig } from './rig.js';

const WA = '254722000321';
const DAY = 24 * 3600_000;

let rig: Rig;
let graph: FakeWhatsAppGraphApi;
let channel: WhatsAppCloudChannel;
let http: HttpServer;

beforeAll(async () => {
  rig = await startRig({ ownership: true });
  graph = await FakeWhatsAppGraphApi.start({
    token: TOKEN,
    phoneNumberId: PHONE_NUMBER_ID,
    appSecret: APP_SECRET,
  });
  channel = createWhatsAppCloudChannel({
    ...replicaOptions(graph, rig.redis, rig.prefix),
    conversation: rig.engine,
    pacing: { mps: 200, pairIntervalMs: 10, pairBurst: 50 },
    retry: { baseMs: 20, pairMs: 40 },
  });
  rig.engine.registerChannel(channel.adapter);
  http = await serveReplica(channel, graph);
});

afterAll(async () => {
  await channel?.stop();
  await http?.close();
  await graph?.close();
  await rig?.stop();
});

const texts = (threadId: number) => rig.fake.topicMessages(SUPPORT_CHAT, threadId).map((m) => m.text);
const bodyOf = (m: SentMessage): string =>
  m.type === 'template'
    ? String(m.body.template.components[0].parameters[0].text)
    : String(m.body.text?.body ?? m.body.interactive?.body?.text ?? '');
const waitTopic = (threadId: number, part: string) =>
  rig.fake.waitFor(() => texts(threadId).find((t) => t.includes(part)), 8000, `"${part}" in the topic`);

/** The WhatsApp user's 24-hour window closed: our book and Meta's. */
async function closeWindow(waId: string): Promise<void> {
  const keys = cloudKeys(rig.prefix, PHONE_NUMBER_ID);
  await rig.redis.hSet(keys.lastInbound, waId, String(Date.now() - DAY - 3600_000));
  graph.ageWindow(waId, DAY + 3600_000);
}

/** Opens the WhatsApp user's case (they write in Kiswahili); its topic's thread id. */
async function openCase(waId: string): Promise<number> {
  await graph.sendText(waId, 'Habari, nataka kuongea na mtu');
  await graph.sendText(waId, 'support');
  const masked = `${waId.slice(0, 4)}••••${waId.slice(-4)}`;
  const topic = await rig.fake.waitFor(
    () => rig.fake.forumTopics(SUPPORT_CHAT).find((t) => t.name.includes(masked)),
    8000,
    'the topic',
  );
  const threadId = topic.message_thread_id;
  // The card shows the user's language from the start (they wrote in Kiswahili).
  await rig.fake.waitFor(
    () => texts(threadId)[0]?.includes('Language: Kiswahili · Last read: nothing from an agent yet'),
    8000,
    'the card with the language',
  );
  await channel.idle();
  return threadId;
}

const card = (threadId: number) => texts(threadId)[0] ?? '';
const fullCopies = (waId: string, from: number, part: string) =>
  graph
    .to(waId)
    .slice(from)
    .filter((m) => m.type !== 'template' && bodyOf(m).includes(part));

describe("an agent's reply outside the WhatsApp window", () => {
  it('a short reply: the template carries it all, the topic says so, and it is not sent again', async () => {
    const threadId = await openCase(WA);
    await closeWindow(WA);
    const from = graph.to(WA).length;
    const reply = 'Tumeangalia oda yako, pesa itarudi leo';
    rig.fake.sendText(SUPPORT_CHAT, reply, { userId: AGENT, firstName: 'Amina', threadId });
    const told = await waitTopic(threadId, 'approved template');
    expect(told).toContain('in Kiswahili');
    expect(told).toContain('carried all of it');
    await channel.idle();
    const sent = graph.to(WA).slice(from);
    expect(sent.map((m) => m.type)).toEqual(['template']);
    expect(sent[0]!.body.template.language.code).toBe('sw');
    expect(bodyOf(sent[0]!)).toContain(reply);
    expect(texts(threadId).join('\n')).not.toContain('Delivered to the user');
    await rig.fake.waitFor(() => card(threadId).includes('Last read: whole message'), 8000, 'the card');
    expect(card(threadId)).toContain('Language: Kiswahili');

    // The user writes again: the reply is not sent a second time.
    await graph.sendText(WA, 'Asante sana');
    await waitTopic(threadId, 'Asante sana');
    await channel.idle();
    expect(fullCopies(WA, from, reply)).toHaveLength(0);
    expect(texts(threadId).join('\n')).not.toContain('got your whole reply then');
  });

  it('a long reply: the template now, the whole reply once when the user writes; topic and card say which', async () => {
    const wa = '254722000322';
    const threadId = await openCase(wa);
    await closeWindow(wa);
    const from = graph.to(wa).length;
    const reply = `Maelezo kamili: ${'hatua kwa hatua, '.repeat(60)}mwisho.`;
    rig.fake.sendText(SUPPORT_CHAT, reply, { userId: AGENT, firstName: 'Amina', threadId });
    const told = await waitTopic(threadId, 'approved template');
    expect(told).toContain('in Kiswahili');
    expect(told).toContain('the whole reply goes to them once, when they next write');
    await channel.idle();
    expect(
      graph
        .to(wa)
        .slice(from)
        .map((m) => m.type),
    ).toEqual(['template']);
    await rig.fake.waitFor(
      () => card(threadId).includes('Last read: template only'),
      8000,
      'the card: template',
    );
    expect(card(threadId)).toContain('Language: Kiswahili');

    // The user writes twice: the held reply goes in full once, and the topic says so once.
    await graph.sendText(wa, 'Sawa');
    await waitTopic(threadId, 'got your whole reply then, in Kiswahili');
    await graph.sendText(wa, 'Nitasubiri');
    await waitTopic(threadId, 'Nitasubiri');
    await channel.idle();
    await rig.support.desk.idle();
    expect(fullCopies(wa, from, 'mwisho.')).toHaveLength(1);
    expect(texts(threadId).filter((t) => t.includes('got your whole reply then'))).toHaveLength(1);
    await rig.fake.waitFor(
      () => card(threadId).includes('Last read: whole message'),
      8000,
      'the card: whole',
    );
  });

  it('/resolve outside the window: the closing words go once, as the template, and the topic says so', async () => {
    const wa = '254722000323';
    const threadId = await openCase(wa);
    await closeWindow(wa);
    const from = graph.to(wa).length;
    const words = 'Pesa imerudi kwa M-Pesa';
    rig.fake.sendText(SUPPORT_CHAT, `/resolve ${words}`, { userId: AGENT, firstName: 'Amina', threadId });
    const told = await waitTopic(threadId, 'approved template');
    expect(told).toContain('in Kiswahili');
    expect(told).toContain('carried all of it');
    await waitTopic(threadId, 'Closed by');
    await channel.idle();
    const sent = graph.to(wa).slice(from);
    expect(sent.map((m) => m.type)).toEqual(['template']);
    expect(sent[0]!.body.template.language.code).toBe('sw');
    expect(bodyOf(sent[0]!)).toContain(words);

    // The user writes again: they get an answer, but not the closing words a second time.
    await graph.sendText(wa, 'Asante');
    await rig.fake.waitFor(
      () =>
        graph
          .to(wa)
          .slice(from)
          .some((m) => m.type !== 'template'),
      8000,
      'an answer to the user',
    );
    await channel.idle();
    await rig.support.desk.idle();
    expect(fullCopies(wa, from, words)).toHaveLength(0);
  });
});
