/**
 * A user's message longer than one Telegram message reaches the support topic whole: split on text,
 * never inside an HTML entity (the fake Bot API parses every part as Telegram would).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitHtml } from '../../src/support/telegram/split-html.js';
import { lastId, type Rig, SUPPORT_CHAT, startRig, waitForText } from './rig.js';

const USER = 777_401;
let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.stop();
});

describe('a long message to support', () => {
  it('arrives intact in several parts, entities never cut', async () => {
    const before = lastId(rig.fake, USER);
    rig.fake.sendText(USER, '/support');
    await waitForText(rig.fake, USER, 'talking to our support team', before);
    const topic = await rig.fake.waitFor(() => rig.fake.forumTopics(SUPPORT_CHAT)[0], 5000, 'a topic');
    // 4,009 characters (Telegram takes up to 4,096) whose "&<>" escape to far more: entities everywhere.
    const long = `START ${'a&b<c>d '.repeat(500)}END`;
    rig.fake.sendText(USER, long);
    const parts = await rig.fake.waitFor(
      () => {
        const msgs = rig.fake.topicMessages(SUPPORT_CHAT, topic.message_thread_id);
        const i = msgs.findIndex((m) => m.text.includes('START'));
        const j = msgs.findIndex((m) => m.text.includes('END'));
        return i >= 0 && j >= i ? msgs.slice(i, j + 1) : undefined;
      },
      8000,
      'all the parts',
    );
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.map((p) => p.text).join('')).toBe(`👤 User: ${long}`);
  });
});

describe('splitHtml', () => {
  it('keeps tags balanced in every part and loses nothing', () => {
    const html = `<b>${'x &amp; y '.repeat(100)}</b> and ${'z '.repeat(50)}`;
    const parts = splitHtml(html, 120);
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(120);
      expect(p).not.toMatch(/&[a-z]*$/);
      expect((p.match(/<b>/g) ?? []).length).toBe((p.match(/<\/b>/g) ?? []).length);
    }
    const plain = (s: string) => s.replace(/<\/?b>/g, '');
    expect(parts.map(plain).join('')).toBe(plain(html));
  });
});
