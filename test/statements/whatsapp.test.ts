/**
 * Monthly statements over WhatsApp, the whole app with real Redis and the sandbox on both
 * transports: on the Cloud API (the fake Graph API) each file is uploaded as media (the CSV as
 * text/plain, the only text type Meta takes) and sent as a document message naming it and its
 * filename, on baileys (a recording socket) as a document message; the PDF first with the caption,
 * then the CSV, and both read back name the order and add up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthOf, periodDays } from '../../src/statements/month.js';
import { startWaRig, TRANSPORTS, type WaRig } from '../journeys/whatsapp-drivers.js';
import { csvRows, pdfText } from './read.js';

const WALLET = '0x52908400098527886e0f7030069857d2e4169ee7';

describe.each(TRANSPORTS)('/statement over WhatsApp (%s)', (transport) => {
  let rig: WaRig;

  beforeAll(async () => {
    rig = await startWaRig(transport);
  }, 60_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it('sends the PDF, then the CSV, as documents with their names', async () => {
    const u = rig.user(transport === 'cloud' ? '254712340091' : '254712340092');
    await u.say(`/buy 500 USDT polygon ${WALLET}`);
    await u.choose(/^buy:phone:saved$/);
    await u.choose(/^buy:confirm:/);
    const done = await u.until(/🎉/, 20_000);
    const orderId = /\b(D-[\w-]+)/.exec(u.texts().join('\n'))![1]!;
    expect(done).toBeTruthy();

    await u.say('/statement');
    await u.until(/Your statement for/, 15_000);
    const until = Date.now() + 8000;
    while (rig.documents(u.waId).length < 2 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    const [pdf, csv] = rig.documents(u.waId);
    const month = monthOf(Date.now());
    const key = `${month.year}-${String(month.month).padStart(2, '0')}`;
    expect(pdf).toMatchObject({ filename: `statement-${key}.pdf`, mime: 'application/pdf' });
    expect(pdf!.caption).toMatch(/Your statement for \w+ \d{4}: 1 order,/);
    expect(csv).toMatchObject({ filename: `statement-${key}.csv` });
    expect(csv!.mime).toBe(transport === 'cloud' ? 'text/plain' : 'text/csv');

    const text = await pdfText(pdf!.bytes);
    const { first, last } = periodDays(month);
    expect(text).toContain(`Period: ${first} to ${last}`);
    expect(text).toContain(orderId);
    expect(text).toContain('Buys: 1 of 1 completed: Paid KES: 506.00, Fee KES: 6.00');
    const rows = csvRows(csv!.bytes);
    expect(rows.some((r) => r[1] === orderId && r.includes('Completed'))).toBe(true);
    expect(rows.find((r) => r[0]!.startsWith('Buys:'))).toContain('506.00');
  }, 60_000);
});
