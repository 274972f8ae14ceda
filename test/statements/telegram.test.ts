/**
 * Monthly statements on Telegram, the whole app on the fake Bot API with real Redis, the sandbox and
 * the tracker: a user who bought twice this month (once paid, once failed at M-Pesa) asks /statement
 * and gets two documents in order (sendDocument, the PDF with the caption, then the CSV); the PDF
 * names the period, every order and the totals; the CSV's totals are its orders added up. A
 * Kiswahili user's `/taarifa oktoba` is about October and, with no orders then, says so instead
 * of sending empty files; a month to come is refused in words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthOf, periodDays } from '../../src/statements/month.js';
import type { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { buttonsOf, confirmBuy, startTelegramApp, type TelegramApp } from '../helpers/telegram-app.js';
import { csvRows, pdfText, sumCents } from './read.js';

const TOKEN = '123456789:test-token-statements-not-real';
const WALLET = '0x52908400098527886e0f7030069857d2e4169ee7';
let fake: FakeTelegramBotApi;
let run: TelegramApp;

beforeAll(async () => {
  run = await startTelegramApp(TOKEN, 'statements-tg');
  ({ fake } = run);
}, 60_000);

afterAll(async () => {
  await run?.stop();
});

const texts = (chat: number) => fake.sentMessages(chat).map((m) => m.text);
const documents = (chat: number) => fake.sentMessages(chat).filter((m) => m.document);

async function buy(chat: number, phone: string, outcome: RegExp): Promise<void> {
  const before = fake.sentMessages(chat).length;
  await confirmBuy(fake, chat, { wallet: WALLET, phone });
  await fake.waitFor(
    () =>
      texts(chat)
        .slice(before)
        .some((t) => outcome.test(t)),
    20_000,
    `${outcome}`,
  );
}

describe('/statement on Telegram', () => {
  it('sends the month as a PDF and a CSV that name the period, every order and the totals', async () => {
    const chat = 640001;
    await buy(chat, '0712340001', /did not go through/);
    await buy(chat, '0712345678', /🎉/);
    const orderIds = [
      ...new Set(texts(chat).flatMap((t) => [...t.matchAll(/\b(D-[\w-]+)/g)].map((m) => m[1]!))),
    ];
    expect(orderIds).toHaveLength(2);

    fake.sendText(chat, '/statement');
    const [pdf, csv] = await fake.waitFor(
      () => (documents(chat).length >= 2 ? documents(chat) : undefined),
      15_000,
      'two documents',
    );
    expect(fake.callsTo('sendDocument', chat)).toHaveLength(2);
    // The PDF first with the caption, then the CSV.
    expect(pdf!.message_id).toBeLessThan(csv!.message_id);
    const month = monthOf(Date.now());
    const key = `${month.year}-${String(month.month).padStart(2, '0')}`;
    expect(pdf!.document!.filename).toBe(`statement-${key}.pdf`);
    expect(csv!.document!.filename).toBe(`statement-${key}.csv`);
    expect(pdf!.text).toMatch(/Your statement for \w+ \d{4}: 2 orders/);

    const text = await pdfText(pdf!.document!.bytes);
    const { first, last } = periodDays(month);
    expect(text).toContain(`Period: ${first} to ${last}, Nairobi time`);
    for (const id of orderIds) expect(text).toContain(id);
    // One buy paid KES 500 + fee 6; the failed one moved no money.
    expect(text).toContain('Buys: 1 of 2 completed: Paid KES: 506.00, Fee KES: 6.00');
    expect(text).toMatch(/Transaction hash: 0x[0-9a-f]{64}/);

    const rows = csvRows(csv!.document!.bytes);
    const header = rows[0]!;
    const col = (name: string) => header.indexOf(name);
    const orders = rows.filter((r) => /^D-/.test(r[col('Order ID')] ?? ''));
    expect(orders.map((r) => r[col('Order ID')]).sort()).toEqual([...orderIds].sort());
    const completed = orders.filter((r) => r[col('State')] === 'Completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]![col('M-Pesa receipt')]).toMatch(/^\w{6,}$/);
    // Tokens as they moved: USDT's 6 decimals (the quote's figure carries 16), as the chat said it.
    expect(completed[0]![col('Token amount')]).toBe('3.861004');
    const totals = rows.find((r) => r[0]!.startsWith('Buys:'))!;
    expect(sumCents(totals.slice(col('Paid KES'), col('Paid KES') + 1))).toBe(
      sumCents(completed.map((r) => r[col('Paid KES')]!)),
    );
    expect(totals[col('Fee KES')]).toBe('6.00');
    expect(totals[col('Paid KES')]).toBe('506.00');
    expect(rows.at(-1)).toEqual(['Period', first, last, 'Africa/Nairobi (UTC+3)']);
  }, 60_000);

  it('the history offers the statement as a button', async () => {
    const chat = 640001;
    const before = documents(chat).length;
    fake.sendText(chat, '/history');
    const shown = await fake.waitFor(
      () => {
        const m = fake.lastMessage(chat);
        const b = buttonsOf(m).find((x) => x.callback_data?.startsWith('stmt:'));
        return m && b ? { id: m.message_id, data: b.callback_data! } : undefined;
      },
      8000,
      'the statement button',
    );
    fake.pressButton(chat, shown.id, shown.data);
    await fake.waitFor(() => documents(chat).length >= before + 2, 15_000, 'two more documents');
  }, 30_000);

  it('/taarifa oktoba for a Kiswahili user is about October, and an empty month says so', async () => {
    const chat = 640002;
    fake.sendText(chat, '/taarifa oktoba', { languageCode: 'sw' });
    await fake.waitFor(
      () => texts(chat).find((t) => /Hukufanya oda yoyote mwezi wa Oktoba \d{4}/.test(t)),
      8000,
      'the empty month in Kiswahili',
    );
    fake.sendText(chat, '/statement 2999-01', { languageCode: 'sw' });
    await fake.waitFor(
      () => texts(chat).find((t) => /Januari 2999 bado haujafika/.test(t)),
      8000,
      'a month to come',
    );
    fake.sendText(chat, '/statement someday', { languageCode: 'sw' });
    await fake.waitFor(
      () => texts(chat).find((t) => /Sikuweza kujua "someday" ni mwezi gani/.test(t)),
      8000,
      'no month',
    );
    expect(documents(chat)).toHaveLength(0);
  }, 30_000);
});
