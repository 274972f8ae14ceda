/**
 * Receipts on Telegram, the whole app on the fake Bot API with real Redis and the sandbox: Alice
 * finishes a buy, taps 🧾 Receipt under it and gets one picture (sendPhoto) whose QR code reads the
 * explorer page of her order's hash; a second tap sends the picture kept in the media store; Bob,
 * who speaks Kiswahili, gets his receipt in Kiswahili, and neither gets a receipt of the other's order.
 */
import { PNG } from 'pngjs';
import { RESP_TYPES, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explorerTxUrl } from '../../src/domain/networks.js';
import type { FakeMessage, FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { buttonsOf, confirmBuy, startTelegramApp, type TelegramApp } from '../helpers/telegram-app.js';
import { readQr } from './qr.js';

const TOKEN = '123456789:test-token-receipts-telegram-not-real';
const ALICE = 620001;
const BOB = 620002;
const WALLET = '0x52908400098527886e0f7030069857d2e4169ee7';
let fake: FakeTelegramBotApi;
let redis: RedisClientType;
let prefix: string;
let run: TelegramApp;

beforeAll(async () => {
  run = await startTelegramApp(TOKEN, 'receiptstg');
  ({ fake, redis, prefix } = run);
}, 60_000);

afterAll(async () => {
  await run?.stop();
});

/** A buy of KES 500 of USDT on Polygon, paid; answers the finished order's message and its id. */
async function finishedBuy(
  chat: number,
  lang: string,
  phone: string,
): Promise<{ done: FakeMessage; orderId: string }> {
  await confirmBuy(fake, chat, { wallet: WALLET, phone, languageCode: lang });
  const done = await fake.waitFor(
    () => fake.sentMessages(chat).find((m) => buttonsOf(m).some((b) => b.callback_data?.startsWith('rc:'))),
    20_000,
    'the finished buy with its Receipt button',
  );
  return {
    done,
    orderId: buttonsOf(done)
      .find((b) => b.callback_data?.startsWith('rc:'))!
      .callback_data!.slice(3),
  };
}

const photos = (chat: number) => fake.sentMessages(chat).filter((m) => m.photo);
const nthPhoto = (chat: number, n: number) =>
  fake.waitFor(() => photos(chat)[n - 1], 10_000, `receipt picture ${n} in chat ${chat}`);

const qrOf = (bytes: Uint8Array) => readQr(bytes).qr;

describe('a receipt on Telegram', () => {
  let alice: { done: FakeMessage; orderId: string };
  let bob: { done: FakeMessage; orderId: string };

  beforeAll(async () => {
    [alice, bob] = await Promise.all([
      finishedBuy(ALICE, 'en', '0712345678'),
      finishedBuy(BOB, 'sw', '0722345679'),
    ]);
  }, 60_000);

  it('a tap on Receipt sends one picture whose QR code is the explorer page of the hash', async () => {
    const hash = /0x[0-9a-fA-F]{64}/.exec(alice.done.text)![0];
    const tap = buttonsOf(alice.done).find((b) => b.callback_data?.startsWith('rc:'))!;
    expect(tap.text).toBe('🧾 Receipt');
    fake.pressButton(ALICE, alice.done.message_id, tap.callback_data!);
    const pic = await nthPhoto(ALICE, 1);
    expect(fake.callsTo('sendPhoto', ALICE)).toHaveLength(1);
    expect(pic.text).toContain(`Your receipt for order ${alice.orderId}`);
    expect(pic.photo!.bytes.length).toBeLessThan(150 * 1024);
    expect(pic.photo!.width).toBe(640);
    expect(qrOf(pic.photo!.bytes)).toBe(explorerTxUrl('polygon', hash));
    expect(buttonsOf(pic).find((b) => b.url)?.url).toBe(explorerTxUrl('polygon', hash));
  });

  it('a second tap sends the picture kept for that order and language, not a new drawing', async () => {
    const binary = redis.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
    const key = `${prefix}media:receipt:${alice.orderId}:en`;
    expect(Buffer.from(photos(ALICE)[0]!.photo!.bytes).equals((await binary.get(key)) as Buffer)).toBe(true);
    // Put a stand-in under the key: drawn again, the receipt would not be this 4×4 picture.
    const marker = new PNG({ width: 4, height: 4 });
    marker.data.fill(200);
    const markerBytes = PNG.sync.write(marker);
    await redis.set(key, markerBytes, { expiration: { type: 'PX', value: 60_000 } });
    fake.pressButton(ALICE, alice.done.message_id, `rc:${alice.orderId}`);
    const again = await nthPhoto(ALICE, 2);
    expect(Buffer.from(again.photo!.bytes).equals(markerBytes)).toBe(true);
  });

  it('speaks Kiswahili to a Kiswahili user', async () => {
    fake.pressButton(BOB, bob.done.message_id, `rc:${bob.orderId}`, { languageCode: 'sw' });
    const pic = await nthPhoto(BOB, 1);
    expect(pic.text).toContain(`Risiti yako ya oda ${bob.orderId}`);
    expect(buttonsOf(pic).find((b) => b.url)?.text).toBe('🔎 Tazama muamala');
    expect(await redis.exists(`${prefix}media:receipt:${bob.orderId}:sw`)).toBe(1);
    expect(qrOf(pic.photo!.bytes)).toMatch(/^https:\/\/polygonscan\.com\/tx\/0x[0-9a-f]{64}$/i);
  });

  it("refuses another user's order, by command or by a forged button, without saying it exists", async () => {
    const before = photos(BOB).length;
    fake.sendText(BOB, `/receipt ${alice.orderId}`, { languageCode: 'sw' });
    await fake.waitFor(
      () => fake.sentMessages(BOB).find((m) => m.text.includes(`Sioni oda ${alice.orderId} yako`)),
      8000,
      "Bob's refusal",
    );
    fake.pressButton(ALICE, alice.done.message_id, `rc:${bob.orderId}`);
    await fake.waitFor(
      () =>
        fake.sentMessages(ALICE).find((m) => m.text.includes(`can't find an order ${bob.orderId} of yours`)),
      8000,
      "Alice's refusal",
    );
    expect(photos(BOB)).toHaveLength(before);
    expect(photos(ALICE)).toHaveLength(2);
  });
});
