/**
 * The same WhatsApp journeys over both transports (baileys and the Cloud API), against the whole
 * app: a whole buy from hello to the tokens' hash, with a redelivered Confirm that sends no second
 * STK push; a whole sell signed with the dev wallet to the M-Pesa receipt; Kiswahili with a limit
 * refused, a notice mid-flow, /historia and the support relay both ways. Choices are answered the
 * way each transport offers them: a number on baileys, a tap on a button or list row on the Cloud API.
 * Then, on the Cloud API only: an order update after the 24-hour window goes out as the template.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudKeys } from '../../src/channels/whatsapp-cloud/index.js';
import { displayPhone } from '../../src/flows/index.js';
import { loadI18n } from '../../src/i18n/index.js';
import { FakeWhatsAppGraphApi } from '../fakes/whatsapp-graph-api.js';
import { AGENT, CLOUD, SUPPORT_CHAT, startWaRig, TRANSPORTS, type WaRig } from './whatsapp-drivers.js';

const WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const i18n = loadI18n();

describe.each(TRANSPORTS)('WhatsApp over %s', (transport) => {
  let rig: WaRig;
  beforeAll(async () => {
    rig = await startWaRig(transport);
  });
  afterAll(async () => {
    await rig?.stop();
  });

  it('a whole buy: hello to the hash, the sender offered as the M-Pesa number, one STK push', async () => {
    const phone = '254712340011';
    const u = rig.user(phone);
    await u.say('hi');
    await u.choose(/^menu:buy$/);
    await u.choose(/^buy:amt:1000$/);
    await u.choose(/^buy:tok:USDT$/);
    await u.choose(/^buy:net:polygon$/);
    await u.until(i18n.t('en', { id: 'buy-ask-wallet', args: { network: 'Polygon' } }));
    await u.say(WALLET);
    // The number the user writes from is offered as the M-Pesa number.
    await u.until(displayPhone(phone));
    await u.choose(/^buy:phone:saved$/);
    await u.until(WALLET);
    const confirm = await u.choose(/^buy:confirm:/);
    await u.until(i18n.t('en', { id: 'buy-never-pin' }));
    // WhatsApp delivers the Confirm again: no second STK push.
    await confirm();
    const done = await u.until(/Transaction: 0x[0-9a-f]{64}/, 20_000);
    expect(done).toContain('🎉');
    const orders = (await rig.app.ramp.getHistory('onramp', WALLET)).records.filter(
      (r) => rig.app.sandbox?.order(r.orderId ?? r.id ?? '')?.phone === phone,
    );
    expect(orders).toHaveLength(1);
    expect(u.texts().filter((t) => t.includes(i18n.t('en', { id: 'buy-never-pin' })))).toHaveLength(1);
    if (transport === 'cloud') {
      // The explorer link is a link button; the ids of the choices are the ones every channel gets.
      const final = rig.graph!.to(phone).find((m) => m.body.interactive?.type === 'cta_url')!;
      expect(final.body.interactive.action.parameters.url).toMatch(/^https:\/\/polygonscan\.com\/tx\/0x/);
      // Choices came as reply buttons and as a list, and the taps on both read back as the same ids.
      const kinds = new Set(rig.graph!.to(phone).map((m) => m.body.interactive?.type));
      expect([...kinds]).toEqual(expect.arrayContaining(['button', 'list', 'cta_url']));
      expect(rig.graph!.reads.length).toBeGreaterThanOrEqual(8);
      expect(rig.graph!.reads.every((r) => r.typing)).toBe(true);
    }
    await u.say('/history');
    await u.until(
      /Bought [\d.]+ USDT for KES 1,000\.00 \+ fee KES 6\.00 = KES 1,006\.00 on Polygon ✅ completed/,
    );
  });

  it('a whole sell: confirmed, signed with the dev wallet, paid out to the sender’s M-Pesa', async () => {
    const phone = '254712340022';
    const u = rig.user(phone);
    await u.say('/sell 1000 KES USDT polygon');
    await u.until(displayPhone(phone));
    await u.choose(/^sell:phone:saved$/);
    await u.choose(/^sell:confirm:/);
    await u.until('https://rampchat.example/sign/');
    if (transport === 'cloud') {
      // The signing link is a link button; the sale's other choices follow as reply buttons.
      const link = rig.graph!.to(phone).find((m) => m.body.interactive?.type === 'cta_url')!;
      expect(link.body.interactive.action.parameters.url).toMatch(
        /^https:\/\/metamask\.app\.link\/|^https:\/\/rampchat\.example\/sign\//,
      );
    }
    await u.choose(/^sell:devsign$/, 20_000);
    await u.until(/Order WD-[\w-]+ is filed/, 30_000);
    await u.until(/✅ KES 1,000\.00 sent to .*M-Pesa receipt: \w{10}/, 30_000);
  });

  it('Kiswahili: a limit refused with the user’s figure, a notice mid-flow, /historia, and the support relay both ways', async () => {
    const phone = '254744444444';
    const u = rig.user(phone);
    await u.say('/lugha');
    await u.choose(/^set:lang:sw$/);
    await u.until('Kiswahili');

    // The limit, at the amount step, with the user's own figure.
    await u.say(`/buy 20000 USDT polygon ${WALLET} 0744444444`);
    const refused = await u.until('haiwezekani');
    expect(refused).toContain(
      'Unaweza kununua kuanzia KSh 1 hadi KSh 10,000, kwa hivyo KSh 20,000 haiwezekani',
    );
    expect(refused).toContain(transport === 'baileys' ? '*1.* KSh 500' : '[KSh 500]');

    // A notice arrives mid-flow: its choice is kept apart, and the question's first choice still
    // answers the amount question (a number on baileys, the question's button on the Cloud API).
    await rig.app.engine.notify(
      { channel: 'whatsapp', id: phone },
      {
        texts: [{ id: 'core-error-unavailable' }],
        buttons: [[{ id: 'menu:history', label: { id: 'core-menu-history' } }]],
      },
    );
    const notice = u.texts().at(-1)!;
    expect(notice).toContain(
      transport === 'baileys' ? '*A.*' : `[${i18n.t('sw', { id: 'core-menu-history' })}]`,
    );
    await u.choose(/^buy:amt:500$/);
    const summary = await u.until('Tafadhali hakiki oda yako');
    expect(summary).toContain('KSh 506.00');
    // Confirm, the payment settles, and /historia tells the truth about it in Kiswahili.
    await u.choose(/^buy:confirm:/);
    await u.until('ombi la malipo la M-Pesa');
    await u.until('Imekamilika!', 20_000);
    await u.say('/historia');
    expect(await u.until('imekamilika')).toMatch(
      /Ulinunua [\d.]+ USDT kwa KSh 500\.00 \+ ada KSh 6\.00 = KSh 506\.00 kwenye Polygon ✅ imekamilika/,
    );

    // A network that does not carry the token: refused with the reason, and the network asked.
    await u.say('/buy 500 cKES polygon');
    const asked = await u.until('haipatikani');
    expect(asked).toContain('cKES haipatikani kwenye Polygon.');
    expect(asked).toContain('Ungependa kupokea cKES kwenye mtandao gani?');
    await u.say('/cancel');
    await u.until('Imeghairiwa');

    // Support: every message is acknowledged and reaches the agents' topic; an agent's answer
    // reaches the user on WhatsApp.
    await u.say('support');
    await u.until('Sasa unaongea na timu yetu');
    await u.say('Malipo yangu hayajafika');
    await u.until('Ujumbe wako umefika kwa timu yetu');
    const topic = await waitForTopic(rig, (text) => text.includes('Malipo yangu hayajafika'));
    rig.tg.sendText(SUPPORT_CHAT, 'Tunaangalia malipo yako sasa', { userId: AGENT, threadId: topic });
    await u.until('Tunaangalia malipo yako sasa');
    await u.say('Bado hayajafika');
    await u.until('Ujumbe wako umefika kwa timu yetu');
  });
});

/** The support topic one of whose messages matches, once it is there. */
async function waitForTopic(rig: WaRig, match: (text: string) => boolean): Promise<number> {
  return rig.tg.waitFor(
    () =>
      rig.tg
        .forumTopics(SUPPORT_CHAT)
        .find((t) => rig.tg.topicMessages(SUPPORT_CHAT, t.message_thread_id).some((m) => match(m.text)))
        ?.message_thread_id,
    20_000,
    'the support topic',
  );
}

describe('WhatsApp over the Cloud API, after the 24-hour window', () => {
  let rig: WaRig;
  beforeAll(async () => {
    // Payments settle in 5 s: time to let a day pass in between, even on a busy machine.
    rig = await startWaRig('cloud', { SANDBOX_SETTLE_MS: '5000' });
  });
  afterAll(async () => {
    await rig?.stop();
  });

  it('a delayed order update goes out as the template, in full once the user writes; an undeliverable one becomes a support case', async () => {
    const phone = '254755500033';
    const u = rig.user(phone);
    const graph = rig.graph!;
    await u.say(`/buy 500 USDT polygon ${WALLET}`);
    await u.choose(/^buy:phone:saved$/);
    await u.choose(/^buy:confirm:/);
    const stk = await u.until(i18n.t('en', { id: 'buy-never-pin' }));
    const orderId = /Order (D-[\w-]+)/.exec(stk)![1]!;

    // A day passes before M-Pesa settles: Meta's window and ours are both closed.
    const keys = cloudKeys(`${rig.prefix}wa-cloud:`, CLOUD.phoneNumberId);
    await rig.app.redis!.hSet(keys.lastInbound, phone, String(Date.now() - 25 * 3600_000));
    graph.ageWindow(phone, 25 * 3600_000);
    const aged = graph.to(phone).length;

    const done = await graph.waitFor(
      () =>
        graph
          .to(phone)
          .slice(aged)
          .find(
            (m) =>
              m.type === 'template' && /Transaction: 0x[0-9a-f]{64}/.test(FakeWhatsAppGraphApi.textOf(m)),
          ),
      20_000,
      'the final update as a template',
    );
    expect(done.body.template).toMatchObject({ name: 'rampchat_update', language: { code: 'en' } });
    expect(FakeWhatsAppGraphApi.textOf(done)).toMatch(
      /^🎉 Done! .* · Transaction: 0x[0-9a-f]{64} · View on the explorer: https:/,
    );
    // Only templates went after the window closed: nothing Meta would have refused with #131047.
    expect(
      graph
        .to(phone)
        .slice(aged)
        .every((m) => m.type === 'template'),
    ).toBe(true);
    expect(graph.refusals).not.toContain(131047);

    // The user answers: the order's current state comes in full (the explorer link button, "Buy
    // again"), once: not the "waiting for your payment" and "payment received" it went through.
    const beforeThanks = graph.to(phone).length;
    await u.say('thanks');
    await u.until(/\[View on the explorer -> https:\/\/polygonscan\.com\/tx\/0x/);
    await rig.app.whatsappCloud!.idle();
    const replayed = graph.to(phone).slice(beforeThanks).map(FakeWhatsAppGraphApi.textOf).join('\n');
    expect(replayed).not.toContain('⏳ Waiting for your M-Pesa payment');
    expect(replayed).not.toContain('✅ M-Pesa payment received');
    expect(replayed.match(/🎉 Done!/g)).toHaveLength(1);
    // "Buy again" lands on the summary: the saved wallet and phone fill what the button leaves out.
    await u.choose(/^menu:buy:/);
    await u.until(i18n.t('en', { id: 'buy-summary-title' }));
    await rig.app.whatsappCloud!.idle();
    await rig.app.engine.idle();

    // Another day; an agent's note for the order cannot be delivered at all (the template is refused
    // as undeliverable): support gets a case about the order instead.
    await rig.app.redis!.hSet(keys.lastInbound, phone, String(Date.now() - 25 * 3600_000));
    graph.ageWindow(phone, 25 * 3600_000);
    graph.failNext({ code: 131026, type: 'template', message: '(#131026) Message undeliverable' });
    await rig.app.engine.notify(
      { channel: 'whatsapp', id: phone },
      {
        texts: [{ id: 'tracker-onramp-pending', args: { amount: 'KES 500.00', orderId } }],
        replaceKey: `order:${orderId}`,
      },
    );
    const topic = await waitForTopic(rig, (text) =>
      text.includes(i18n.t('en', { id: 'support-reason', args: { reason: 'undeliverable' } })),
    );
    const names = rig.tg.forumTopics(SUPPORT_CHAT).find((t) => t.message_thread_id === topic)!.name;
    expect(names).toContain(orderId);
    expect(names).not.toContain(phone);
  });
});
