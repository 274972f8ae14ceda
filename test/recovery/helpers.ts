/** Steps shared by the recovery tests, on Telegram's fake Bot API. */
import type { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';

type Markup = { inline_keyboard?: Array<Array<{ text: string; callback_data?: string }>> };

/** A one-line /buy, Confirm, and the STK push on its way. */
export async function buyUntilPushed(fake: FakeTelegramBotApi, chat: number, wallet: string): Promise<void> {
  fake.sendText(chat, `/buy 500 USDT polygon ${wallet} 0712345678`);
  const summary = await fake.waitFor(() => {
    const m = fake.sentMessages(chat).at(-1);
    const b = (m?.reply_markup as Markup | undefined)?.inline_keyboard
      ?.flat()
      .find((x) => x.callback_data?.startsWith('buy:confirm:'));
    return b && m ? { m, data: b.callback_data! } : undefined;
  }, 10_000);
  fake.pressButton(chat, summary.m.message_id, summary.data);
  await fake.waitFor(
    () => fake.sentMessages(chat).some((m) => /M-Pesa prompt is on its way/.test(m.text ?? '')),
    10_000,
  );
}

/** The order id the chat was told about in its STK push message. */
export function pushedOrderId(fake: FakeTelegramBotApi, chat: number): string {
  const text = fake.sentMessages(chat).find((m) => /M-Pesa prompt is on its way/.test(m.text ?? ''))?.text;
  const id = /Order (D-[\w-]+)/.exec(text ?? '')?.[1];
  if (!id) throw new Error('no STK push message with an order id');
  return id;
}
