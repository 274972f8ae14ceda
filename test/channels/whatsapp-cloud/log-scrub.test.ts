/**
 * The Cloud API transport's logs at trace level, through messages in and out, a bad signature, a
 * template and an undeliverable update: no access token, app secret or verify token, and no whole
 * phone number (users are known by their number on WhatsApp, so it is masked wherever it is logged).
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { cloudKeys } from '../../../src/channels/whatsapp-cloud/index.js';
import { waitFor } from '../whatsapp/helpers.js';
import { APP_SECRET, PHONE_NUMBER_ID, startCloudRig, TOKEN, VERIFY_TOKEN } from './helpers.js';

describe('Cloud API logs', () => {
  it('carry no secret and no whole phone number', async () => {
    const lines: string[] = [];
    const logs = new Writable({
      write(chunk, _e, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const rig = await startCloudRig({ logs });
    const user = '254712345678';
    try {
      await rig.fake.sendText(user, 'hi');
      await waitFor(() => rig.conversation.handled.length === 1, 5000, 'hi');
      const body = rig.fake.envelope({ messages: [] });
      expect(await rig.fake.post(body, rig.fake.sign(body, 'wrong'))).toBe(401);
      rig.fake.failNext({ code: 130429 });
      await rig.channel.adapter.send(user, { texts: [{ id: 'core-menu-title' }] }, 'en');
      await rig.redis.hSet(cloudKeys(rig.prefix, PHONE_NUMBER_ID).lastInbound, user, '1');
      rig.fake.failNext({ code: 131026, type: 'template' });
      await rig.channel.adapter.send(user, { texts: [{ id: 'core-menu-title' }], notice: true }, 'en');
      expect(rig.escalations).toHaveLength(1);
    } finally {
      await rig.stop();
    }
    const all = lines.join('\n');
    expect(all).toContain('could not reach the user');
    expect(all).toContain('webhook post refused');
    expect(all).toContain('2547••••5678');
    for (const secret of [TOKEN, APP_SECRET, VERIFY_TOKEN]) expect(all).not.toContain(secret);
    expect(all).not.toMatch(/254\s?712\s?345\s?678|0712\s?345\s?678/);
  });
});
