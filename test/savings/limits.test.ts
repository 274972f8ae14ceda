/**
 * The reminder's buttons fit every channel: Pay now and Skip as WhatsApp reply buttons (20
 * characters) in both languages, the plan buttons and the menu entry as list rows (24), and the
 * longest button id within Telegram's 64 bytes of callback data.
 */
import { describe, expect, it } from 'vitest';
import { MAX_CALLBACK_DATA_BYTES } from '../../src/channels/telegram/send/render.js';
import { LIMITS } from '../../src/channels/whatsapp-cloud/limits.js';
import { loadI18n } from '../../src/i18n/index.js';
import { reminderMessage } from '../../src/savings/remind.js';
import { userTag } from '../../src/savings/store.js';

const i18n = loadI18n();

describe('standing buy buttons within the channels’ limits', () => {
  it('labels fit WhatsApp reply buttons and list rows in English and Kiswahili', () => {
    for (const locale of ['en', 'sw'] as const) {
      for (const id of [
        'savings-button-pay',
        'savings-button-skip',
        'savings-button-confirm',
        'savings-button-list',
      ]) {
        const label = i18n.t(locale, { id });
        expect(label.length, `${locale} ${label}`).toBeLessThanOrEqual(LIMITS.buttonTitle);
      }
      for (const id of [
        'savings-button-pause',
        'savings-button-resume',
        'savings-button-change',
        'savings-button-cancel',
      ]) {
        const label = i18n.t(locale, { id, args: { n: '5' } });
        expect(label.length, `${locale} ${label}`).toBeLessThanOrEqual(LIMITS.buttonTitle);
      }
      expect(i18n.t(locale, { id: 'savings-menu' }).length).toBeLessThanOrEqual(LIMITS.rowTitle);
    }
  });

  it('the reminder’s button ids fit Telegram’s callback data', () => {
    const id = `${userTag('whatsapp:254712345678')}35`;
    const m = reminderMessage(
      {
        v: 1,
        id,
        u: 'whatsapp:254712345678',
        t: 'USDT',
        n: 'polygon',
        w: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
        ph: '254712345678',
        kes: 10000,
        c: 'd@9',
        s: 'a',
        due: 0,
        no: 0,
        past: [],
      },
      '2026-11-27',
      '77.2',
    );
    for (const b of m.buttons!.flat())
      expect(Buffer.byteLength(b.id), b.id).toBeLessThanOrEqual(MAX_CALLBACK_DATA_BYTES);
  });
});
