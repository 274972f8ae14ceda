/**
 * #11's journeys on WhatsApp, in Kiswahili (the whole engine and flows, the WhatsApp adapter on a
 * recording socket, the sandbox): a limit refused at the amount step with the user's own figure; a
 * notice arriving mid-flow does not change what a typed number means; a network the user named is
 * refused with the reason and asked, not substituted; a message to support is acknowledged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { message, waitFor } from '../channels/whatsapp/helpers.js';
import { type Rig, startRig, WALLET } from '../support/rig.js';

const PHONE = '254744444444';
const JID = `${PHONE}@s.whatsapp.net`;

let rig: Rig;
beforeAll(async () => {
  rig = await startRig({ whatsapp: true });
});
afterAll(async () => {
  await rig?.stop();
});

/** Sends a text and waits for an answer containing `expected`, newer than what was there before. */
async function say(text: string, expected: string): Promise<string> {
  const socket = rig.socket!;
  const before = socket.sent.length;
  socket.receive(message(JID, text));
  const answer = await waitFor(
    () => socket.sent.slice(before).find((s) => s.jid === JID && s.text.includes(expected)),
    8000,
    `an answer with "${expected}" to "${text}"`,
  );
  return answer.text;
}

describe('WhatsApp in Kiswahili', () => {
  it('limits, numbered answers under a notice, no substitution, and the support acknowledgement', async () => {
    await say('/lugha', 'Kiswahili');
    await say('2', 'Kiswahili');

    // The limit, at the amount step, with the user's own figure.
    const refused = await say(`/buy 20000 USDT polygon ${WALLET} 0744444444`, 'haiwezekani');
    expect(refused).toContain(
      'Unaweza kununua kuanzia KSh 1 hadi KSh 10,000, kwa hivyo KSh 20,000 haiwezekani',
    );
    expect(refused).toContain('*1.* KSh 500.00');

    // A notice with one choice arrives: it is lettered, and "1" still answers the amount question.
    await rig.engine.notify(
      { channel: 'whatsapp', id: PHONE },
      {
        texts: [{ id: 'core-error-unavailable' }],
        buttons: [[{ id: 'menu:history', label: { id: 'core-menu-history' } }]],
      },
    );
    const notice = rig.socket!.sent.at(-1)!;
    expect(notice.text).toContain('*A.*');
    const summary = await say('1', 'Tafadhali hakiki oda yako');
    expect(summary).toContain('KSh 506.00');
    // Confirm, the payment settles, and /historia tells the truth about it in Kiswahili.
    await say('1', 'ombi la malipo la M-Pesa');
    await waitFor(
      () => rig.socket!.sent.find((m) => m.jid === JID && m.text.includes('Imekamilika!')),
      10_000,
      'the final message',
    );
    const history = await say('/historia', 'imekamilika');
    expect(history).toMatch(/Ulinunua [\d.]+ USDT kwa KSh 506\.00 kwenye Polygon ✅ imekamilika/);

    // A network that does not carry the token: refused with the reason, and the network asked.
    const asked = await say('/buy 500 cKES polygon', 'haipatikani');
    expect(asked).toContain('cKES haipatikani kwenye Polygon.');
    expect(asked).toContain('Ungependa kupokea cKES kwenye mtandao gani?');
    await say('/cancel', 'Imeghairiwa');

    // Support: every message is acknowledged.
    await say('support', 'Sasa unaongea na timu yetu');
    await say('Malipo yangu hayajafika', 'Ujumbe wako umefika kwa timu yetu');
    await say('Bado hayajafika', 'Ujumbe wako umefika kwa timu yetu');
  });
});
