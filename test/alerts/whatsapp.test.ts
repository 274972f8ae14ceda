/**
 * A rate alert over both WhatsApp transports, against the whole app: set in Kiswahili words, the
 * sandbox's rate moves, the notice arrives once (a notice: lettered on baileys, buttons on the Cloud
 * API), and "Buy now" opens the buy at the alert's token and network, asking the amount first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadI18n } from '../../src/i18n/index.js';
import { startWaRig, TRANSPORTS, type WaRig } from '../journeys/whatsapp-drivers.js';

const i18n = loadI18n();
const saved = process.env.ALERTS_INTERVAL_MS;

describe.each(TRANSPORTS)('a rate alert over WhatsApp (%s)', (transport) => {
  let rig: WaRig;
  beforeAll(async () => {
    process.env.ALERTS_INTERVAL_MS = '1000';
    rig = await startWaRig(transport);
  });
  afterAll(async () => {
    await rig?.stop();
    if (saved === undefined) delete process.env.ALERTS_INTERVAL_MS;
    else process.env.ALERTS_INTERVAL_MS = saved;
  });

  it('is told once, and Buy now asks only what the buy still needs', async () => {
    const u = rig.user(transport === 'cloud' ? '254712349901' : '254712349902');
    rig.app.sandbox!.setKesPerUsd(131);
    await u.say('/alert USDT celo chini ya 128');
    await u.until(/128/);
    rig.app.sandbox!.setKesPerUsd(127);
    const fired = /127\.00[\s\S]*128\.00/;
    await u.until(fired, 8_000);
    await new Promise((res) => setTimeout(res, 2_300));
    expect(u.texts().filter((t) => fired.test(t))).toHaveLength(1);
    await u.choose(/^menu:buy:USDT celo$/);
    await u.until(i18n.t('en', { id: 'buy-ask-amount' }).slice(0, 30));
    rig.app.sandbox!.setKesPerUsd(129.5);
  }, 40_000);
});
