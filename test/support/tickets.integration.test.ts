/**
 * Refund tickets from the user's chat on Telegram, against the sandbox: from a failed order's
 * button (once per order, however often it is pressed), a refusal for an order that did not fail,
 * and the manual form with each field checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttonsOf, lastId, POLYGON_USDT, type Rig, startRig, WALLET, waitForText } from './rig.js';

const USER = 777_201;
const FAILED_PHONE = '254700000001';
const OK_PHONE = '254711111111';

let rig: Rig;

beforeAll(async () => {
  rig = await startRig();
});

afterAll(async () => {
  await rig?.stop();
});

const user = { channel: 'telegram' as const, id: String(USER) };

describe('a refund ticket from a failed order', () => {
  it('asks for a short description after the tracker button, then files and confirms with the ticket id', async () => {
    const orderId = await rig.onrampOrder(FAILED_PHONE, user);
    // The tracker posts the failure with the ticket button.
    const failed = await waitForText(rig.fake, USER, 'did not go through');
    expect(buttonsOf(failed)).toContain(`ticket:${orderId}`);

    rig.fake.pressButton(USER, failed.message_id, `ticket:${orderId}`);
    const ask = await waitForText(rig.fake, USER, 'what went wrong', failed.message_id);
    expect(ask.text).toContain(orderId);
    rig.fake.sendText(USER, 'I paid but got no USDT');
    const done = await waitForText(rig.fake, USER, 'Refund ticket', ask.message_id);

    const tickets = rig.sandbox.tickets().filter((t) => t.orderID === orderId);
    expect(tickets).toHaveLength(1);
    expect(tickets[0]!.Description).toBe('I paid but got no USDT');
    expect(done.text).toContain(tickets[0]!._id);
    expect(done.text).toContain(orderId);
    expect(buttonsOf(done)).toContain(`support:order:${orderId}`);

    // A second tap answers with the same ticket; the ramp gets nothing new.
    rig.fake.pressButton(USER, failed.message_id, `ticket:${orderId}`);
    const again = await waitForText(rig.fake, USER, 'what went wrong', done.message_id);
    rig.fake.pressButton(USER, again.message_id, 'ticket:desc:default');
    const existing = await waitForText(rig.fake, USER, 'already has refund ticket', again.message_id);
    expect(existing.text).toContain(tickets[0]!._id);
    expect(rig.sandbox.tickets().filter((t) => t.orderID === orderId)).toHaveLength(1);
  });

  it("answers the ramp's refusal for an order that did not fail, and offers a person", async () => {
    const orderId = await rig.onrampOrder(OK_PHONE, user, false);
    const before = lastId(rig.fake, USER);
    rig.fake.sendText(USER, `/ticket ${orderId}`);
    const ask = await waitForText(rig.fake, USER, 'what went wrong', before);
    rig.fake.sendText(USER, 'just checking');
    const refused = await waitForText(rig.fake, USER, 'found no failed purchase', ask.message_id);
    expect(refused.text).toContain(orderId);
    expect(refused.text).toContain('talk to a person');
    expect(buttonsOf(refused)).toContain(`support:order:${orderId}`);
    expect(rig.sandbox.tickets().filter((t) => t.orderID === orderId)).toHaveLength(0);
  });
});

describe('the manual ticket form', () => {
  it('refuses a bad phone, then files with the derived token address', async () => {
    const before = lastId(rig.fake, USER);
    rig.fake.sendText(USER, '/ticket');
    const ask = await waitForText(rig.fake, USER, 'Which order is this about', before);
    rig.fake.pressButton(USER, ask.message_id, 'ticket:manual');
    const side = await waitForText(rig.fake, USER, 'purchase', ask.message_id);
    rig.fake.pressButton(USER, side.message_id, 'ticket:side:offramp');

    const phone = await waitForText(rig.fake, USER, 'Which M-Pesa number', side.message_id);
    rig.fake.sendText(USER, '12345');
    const bad = await waitForText(rig.fake, USER, 'is not a Kenyan mobile number', phone.message_id);
    expect(bad.text).toContain('"12345"');
    rig.fake.sendText(USER, '0712 345 678');

    const chain = await waitForText(rig.fake, USER, 'On which network', bad.message_id);
    expect(buttonsOf(chain)).toContain('ticket:chain:polygon');
    rig.fake.pressButton(USER, chain.message_id, 'ticket:chain:polygon');
    const symbol = await waitForText(rig.fake, USER, 'Which token on Polygon', chain.message_id);
    rig.fake.pressButton(USER, symbol.message_id, 'ticket:sym:USDT');

    const wallet = await waitForText(rig.fake, USER, 'Which wallet address', symbol.message_id);
    rig.fake.sendText(USER, '0x742d35cc6634c0532925a3b844bc454e4438f44X');
    const badWallet = await waitForText(rig.fake, USER, 'not a valid wallet address', wallet.message_id);
    rig.fake.sendText(USER, WALLET.toLowerCase());

    const amount = await waitForText(rig.fake, USER, 'How many USDT', badWallet.message_id);
    rig.fake.sendText(USER, '0');
    const badAmount = await waitForText(rig.fake, USER, 'above zero', amount.message_id);
    rig.fake.sendText(USER, '12.5');
    const describeIt = await waitForText(rig.fake, USER, 'what went wrong', badAmount.message_id);
    rig.fake.sendText(USER, 'Sent tokens, no M-Pesa');

    const summary = await waitForText(
      rig.fake,
      USER,
      'Please check your refund ticket',
      describeIt.message_id,
    );
    expect(summary.text).toContain('+254 712 345 678');
    expect(summary.text).toContain(POLYGON_USDT);
    expect(summary.text).toContain(WALLET);
    rig.fake.pressButton(USER, summary.message_id, 'ticket:confirm');

    const done = await waitForText(rig.fake, USER, 'Refund ticket', summary.message_id);
    const ticket = rig.sandbox.tickets().at(-1)!;
    expect(done.text).toContain(ticket._id);
    expect(ticket).toMatchObject({
      PhoneNumber: '254712345678',
      Amount: '12.5',
      Side: 'off-ramp',
      userAddress: WALLET,
      symbol: 'USDT',
      tokenAddress: POLYGON_USDT,
      chain: 'polygon',
      Description: 'Sent tokens, no M-Pesa',
    });
  });
});
