/**
 * A Kiswahili buy on WhatsApp takes no more actions than an English one: a new user who greets in
 * Kiswahili is answered in Kiswahili from the first message, and the buy is the same taps as in
 * English. Counted over both transports (a number typed on baileys, a tap on the Cloud API).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayPhone } from '../../src/flows/index.js';
import { loadI18n } from '../../src/i18n/index.js';
import { startWaRig, TRANSPORTS, type WaRig, type WaUser } from './whatsapp-drivers.js';

const WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const i18n = loadI18n();

/** A user whose every say and choose is counted as one action. */
function counted(u: WaUser) {
  let actions = 0;
  return {
    get actions() {
      return actions;
    },
    say: (text: string) => {
      actions++;
      return u.say(text);
    },
    choose: (id: RegExp) => {
      actions++;
      return u.choose(id);
    },
    until: u.until,
  };
}

/** From the first hello to the M-Pesa prompt, as a new user in `locale` would. */
async function buy(u: ReturnType<typeof counted>, phone: string, hello: string, locale: 'en' | 'sw') {
  await u.say(hello);
  await u.until(i18n.t(locale, { id: 'core-menu-title' }));
  await u.choose(/^menu:buy$/);
  await u.choose(/^buy:amt:500$/);
  await u.choose(/^buy:tok:USDT$/);
  await u.choose(/^buy:net:polygon$/);
  await u.until(i18n.t(locale, { id: 'buy-ask-wallet', args: { network: 'Polygon' } }));
  await u.say(WALLET);
  await u.until(displayPhone(phone));
  await u.choose(/^buy:phone:saved$/);
  await u.choose(/^buy:confirm:/);
  await u.until(i18n.t(locale, { id: 'buy-never-pin' }));
}

describe.each(TRANSPORTS)('Kiswahili on WhatsApp over %s', (transport) => {
  let rig: WaRig;
  beforeAll(async () => {
    rig = await startWaRig(transport);
  });
  afterAll(async () => {
    await rig?.stop();
  });

  it('a buy in Kiswahili takes as many actions as in English, and is answered in Kiswahili throughout', async () => {
    const en = counted(rig.user('254712349901'));
    await buy(en, '254712349901', 'hi', 'en');

    const swUser = rig.user('254712349902');
    const sw = counted(swUser);
    await buy(sw, '254712349902', 'habari', 'sw');
    expect(sw.actions).toBeLessThanOrEqual(en.actions);
    // Welcomed in Kiswahili, with what the bot does, and no English on the way.
    const seen = swUser.texts();
    expect(seen[0]).toContain(i18n.t('sw', { id: 'core-welcome' }));
    for (const t of seen) expect(t).not.toContain(i18n.t('en', { id: 'core-menu-title' }));
  });
});
