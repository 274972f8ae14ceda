/**
 * Messages out and the errors Meta answers, at the wire: rate limits (130429, 131056) retried until
 * sent; a closed 24-hour window (ours, or Meta's #131047 now or in a later status webhook) answered
 * with the approved template, the message itself delivered in full when the user writes again; an
 * order update that cannot reach its user (131026, a refused template, a revoked token) handed to
 * support, while a reply that fails only logs; nobody is written to who never wrote first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudKeys } from '../../../src/channels/whatsapp-cloud/index.js';
import type { OutMessage } from '../../../src/chat/types.js';
import { loadI18n } from '../../../src/i18n/index.js';
import { FakeWhatsAppGraphApi } from '../../fakes/whatsapp-graph-api.js';
import { waitFor } from '../whatsapp/helpers.js';
import { type CloudRig, PHONE_NUMBER_ID, startCloudRig } from './helpers.js';

const i18n = loadI18n();
const textOf = FakeWhatsAppGraphApi.textOf;
const update = (orderId: string, extra: OutMessage['texts'] = []): OutMessage => ({
  texts: [{ id: 'tracker-onramp-pending', args: { amount: 'KES 500.00', orderId } }, ...extra],
  buttons: [[{ id: `ticket:${orderId}`, label: { id: 'core-menu-history' } }]],
  replaceKey: `order:${orderId}`,
  notice: true,
});
let n = 0;
const newUser = () => `2547220000${String(++n).padStart(2, '0')}`;

let rig: CloudRig;
beforeAll(async () => {
  rig = await startCloudRig();
});
afterAll(async () => {
  await rig?.stop();
});

/** A user who wrote to us (and was answered), so replies may go. */
async function contact(): Promise<string> {
  const user = newUser();
  const before = rig.conversation.handled.length;
  await rig.fake.sendText(user, 'hi');
  await waitFor(() => rig.conversation.handled.length > before, 5000, 'the first message');
  return user;
}

/** Moves a user's last message 25 hours back in our Redis book (what a day of silence leaves). */
async function closeOurWindow(user: string): Promise<void> {
  const keys = cloudKeys(rig.prefix, PHONE_NUMBER_ID);
  await rig.redis.hSet(keys.lastInbound, user, String(Date.now() - 25 * 3600_000));
}

describe('sending over the Cloud API', () => {
  it('never writes first to someone who never wrote to us', async () => {
    await rig.channel.adapter.send(newUser(), { texts: [{ id: 'core-menu-title' }] }, 'en');
    expect(rig.fake.sent).toHaveLength(0);
  });

  it('retries a throughput refusal (130429) and a pair-rate refusal (131056) until Meta takes the message', async () => {
    const user = await contact();
    rig.fake.failNext({ code: 130429, status: 400, message: '(#130429) Rate limit hit' });
    rig.fake.failNext({ code: 131056, status: 400, message: '(#131056) pair rate limit' });
    await rig.channel.adapter.send(user, { texts: [{ id: 'core-menu-title' }] }, 'en');
    expect(rig.fake.to(user).map(textOf)).toEqual([i18n.t('en', { id: 'core-menu-title' })]);
    expect(rig.escalations).toEqual([]);
  });

  it('hands an order update that cannot be delivered (131026) to support; a failed reply only logs', async () => {
    const user = await contact();
    rig.fake.failNext({ code: 131026, message: '(#131026) Message undeliverable' });
    const stk = { id: 'buy-stk-sent', args: { orderId: 'D-abc12-XY', phone: '+254 712 345 678' } };
    const typed = { id: 'support-agent-message', args: { text: 'we will call 0712345678' } };
    await rig.channel.adapter.send(user, update('D-abc12-XY', [stk, typed]), 'en');
    expect(rig.escalations).toEqual([
      expect.objectContaining({
        reason: 'undeliverable',
        user: { channel: 'whatsapp', id: user },
        orderId: 'D-abc12-XY',
        code: 131026,
      }),
    ]);
    expect(rig.escalations[0]!.detail).toContain('D-abc12-XY');
    expect(rig.escalations[0]!.detail).not.toContain(user);
    // What the user was not told is on the agents' card, with no whole phone number in it.
    expect(rig.escalations[0]!.detail).toContain('on its way to 2547••••5678');
    expect(rig.escalations[0]!.detail).not.toMatch(/0712 ?345 ?678|254 ?712 ?345 ?678/);

    rig.fake.failNext({ code: 131026 });
    await rig.channel.adapter.send(user, { texts: [{ id: 'core-menu-title' }] }, 'en');
    expect(rig.escalations).toHaveLength(1);
    expect(rig.fake.to(user)).toHaveLength(0);
    rig.escalations.length = 0;
  });

  it('does not retry a refusal that will not change (a revoked token), and hands the update to support', async () => {
    const user = await contact();
    rig.fake.failNext({ code: 190, status: 401, message: 'Error validating access token' }, 5);
    await rig.channel.adapter.send(user, update('D-tok12-AB'), 'en');
    expect(rig.escalations.map((e) => e.code)).toEqual([190]);
    // One try, not five.
    expect(rig.fake.failuresLeft()).toBe(4);
    rig.fake.clearFailures();
    rig.escalations.length = 0;
  });

  it('outside our 24-hour window sends the template, and the update itself when the user writes again', async () => {
    const user = await contact();
    await closeOurWindow(user);
    rig.fake.ageWindow(user, 25 * 3600_000);
    const refusals = rig.fake.refusals.length;
    await rig.channel.adapter.send(user, update('D-win12-CD'), 'sw');
    const [template] = rig.fake.to(user);
    expect(rig.fake.to(user)).toHaveLength(1);
    // Our own book knew the window was closed: no free text was tried (Meta would answer #131047).
    expect(rig.fake.refusals.slice(refusals)).toEqual([]);
    expect(template!.type).toBe('template');
    expect(template!.body.template).toMatchObject({ name: 'rampchat_update', language: { code: 'sw' } });
    expect(textOf(template!)).toContain('D-win12-CD');

    // The user answers the template: first the update in full (with its button), then their answer.
    const before = rig.conversation.handled.length;
    await rig.fake.sendText(user, 'sawa');
    await waitFor(() => rig.conversation.handled.length > before, 5000, 'the answer');
    const full = rig.fake.to(user)[1]!;
    expect(full.type).toBe('interactive');
    expect(textOf(full)).toContain(i18n.t('sw', update('D-win12-CD').texts[0]!));
    expect(FakeWhatsAppGraphApi.choicesOf(full)).toEqual(['ticket:D-win12-CD']);
    // Held once: it is not delivered again.
    await rig.fake.sendText(user, 'asante');
    await waitFor(() => rig.conversation.handled.length > before + 1, 5000, 'the next answer');
    await rig.channel.idle();
    expect(rig.fake.to(user)).toHaveLength(2);
  });

  it("answers Meta's #131047 (its window closed before ours knew) with the template", async () => {
    const user = await contact();
    rig.fake.ageWindow(user, 25 * 3600_000);
    await rig.channel.adapter.send(user, update('D-met12-EF'), 'en');
    expect(rig.fake.to(user).map((m) => m.type)).toEqual(['template']);
    expect(rig.fake.to(user)[0]!.body.template.language.code).toBe('en');
    expect(rig.escalations).toEqual([]);
  });

  it('after a #131047 refusal, later updates go straight to the template until the user writes (#25)', async () => {
    const user = await contact();
    rig.fake.ageWindow(user, 25 * 3600_000);
    const refusedTo = () => rig.fake.refused.filter((r) => r.to === user && r.code === 131047).length;
    await rig.channel.adapter.send(user, update('D-shu12-AB'), 'en');
    expect(refusedTo()).toBe(1);
    // Two more updates: no free-form call is tried (and refused) for either.
    await rig.channel.adapter.send(user, update('D-shu12-AB', [{ id: 'core-menu-title' }]), 'en');
    await rig.channel.adapter.send(user, update('D-shu12-CD'), 'en');
    expect(refusedTo()).toBe(1);
    expect(rig.fake.to(user).map((m) => m.type)).toEqual(['template', 'template', 'template']);

    // The user writes: the window is open again, and free-form goes as before.
    const before = rig.conversation.handled.length;
    await rig.fake.sendText(user, 'hello again');
    await waitFor(() => rig.conversation.handled.length > before, 5000, 'the answer');
    await rig.channel.idle();
    const sent = rig.fake.to(user).length;
    await rig.channel.adapter.send(user, { texts: [{ id: 'core-menu-title' }] }, 'en');
    expect(
      rig.fake
        .to(user)
        .slice(sent)
        .map((m) => m.type),
    ).toEqual(['text']);
    expect(refusedTo()).toBe(1);
  });

  it("when the user writes again, each order's current state is sent once, not its history (#25)", async () => {
    const user = await contact();
    await closeOurWindow(user);
    rig.fake.ageWindow(user, 25 * 3600_000);
    const step = (orderId: string, id: string): OutMessage => ({
      texts: [{ id, args: { amount: 'KES 500.00', orderId, receipt: 'ABC123', symbol: 'USDT' } }],
      replaceKey: `order:${orderId}`,
      notice: true,
    });
    const done: OutMessage = {
      ...step('D-cur12-AA', 'tracker-onramp-paid'),
      texts: [{ id: 'core-menu-title' }],
      buttons: [[{ id: 'menu:buy:500 USDT polygon', label: { id: 'tracker-buy-again-button' } }]],
    };
    await rig.channel.adapter.send(user, step('D-cur12-AA', 'tracker-onramp-pending'), 'en');
    await rig.channel.adapter.send(user, step('D-cur12-BB', 'tracker-onramp-pending'), 'en');
    await rig.channel.adapter.send(user, step('D-cur12-AA', 'tracker-onramp-paid'), 'en');
    await rig.channel.adapter.send(user, done, 'en');
    await rig.channel.adapter.send(user, { texts: [{ id: 'support-ticket-next' }], notice: true }, 'en');
    expect(rig.fake.to(user).every((m) => m.type === 'template')).toBe(true);
    const aged = rig.fake.to(user).length;

    const before = rig.conversation.handled.length;
    await rig.fake.sendText(user, 'hi');
    await waitFor(() => rig.conversation.handled.length > before, 5000, 'the answer');
    await rig.channel.idle();
    const replayed = rig.fake.to(user).slice(aged).map(textOf);
    const pending = i18n.t('en', step('D-cur12-AA', 'tracker-onramp-pending').texts[0]!);
    const paid = i18n.t('en', step('D-cur12-AA', 'tracker-onramp-paid').texts[0]!);
    // Order AA's "waiting" and "paid" are superseded by its "Done"; order BB's only state stays;
    // a message of no order is kept. In the order of what is kept.
    expect(replayed.some((t) => t.includes(pending))).toBe(false);
    expect(replayed.some((t) => t.includes(paid))).toBe(false);
    expect(replayed).toEqual([
      i18n.t('en', step('D-cur12-BB', 'tracker-onramp-pending').texts[0]!),
      expect.stringContaining(i18n.t('en', { id: 'core-menu-title' })),
      i18n.t('en', { id: 'support-ticket-next' }),
    ]);
  });

  it('hands the update to support when the template is refused too', async () => {
    const user = await contact();
    await closeOurWindow(user);
    rig.fake.failNext({
      code: 132001,
      type: 'template',
      message: '(#132001) Template name does not exist in the translation',
    });
    await rig.channel.adapter.send(user, update('D-tpl12-GH'), 'en');
    expect(rig.fake.to(user)).toHaveLength(0);
    expect(rig.escalations).toEqual([expect.objectContaining({ orderId: 'D-tpl12-GH', code: 132001 })]);
    rig.escalations.length = 0;
  });
});

describe('failures Meta reports later, in a status webhook', () => {
  let late: CloudRig;
  beforeAll(async () => {
    late = await startCloudRig({ windowFailure: 'async' });
  });
  afterAll(async () => {
    await late?.stop();
  });

  it('a free-form message reported failed with #131047 goes again as the template, once', async () => {
    const user = '254733000001';
    await late.fake.sendText(user, 'hi');
    await waitFor(() => late.conversation.handled.length === 1, 5000, 'hi');
    late.fake.ageWindow(user, 25 * 3600_000);
    // Our book: the user wrote a while ago (still inside our window), long before the refused send.
    const keys = cloudKeys(late.prefix, PHONE_NUMBER_ID);
    await late.redis.hSet(keys.lastInbound, user, String(Date.now() - 60_000));
    await late.channel.adapter.send(user, update('D-asy12-IJ'), 'en');
    const template = await late.fake.waitFor(
      () => late.fake.to(user).find((m) => m.type === 'template'),
      5000,
      'the template',
    );
    expect(textOf(template)).toContain('D-asy12-IJ');
    // Meta reports the same failure again: nothing more is sent.
    const first = late.fake.to(user)[0]!;
    expect(await late.fake.status(first, 'failed', 131047)).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    await late.channel.idle();
    expect(late.fake.to(user).filter((m) => m.type === 'template')).toHaveLength(1);
    // The next update goes straight to the template: no free-form message is tried first (#25).
    const sent = late.fake.to(user).length;
    await late.channel.adapter.send(user, update('D-asy12-IJ', [{ id: 'core-menu-title' }]), 'en');
    expect(
      late.fake
        .to(user)
        .slice(sent)
        .map((m) => m.type),
    ).toEqual(['template']);
  });

  it('a #131047 reported after the user wrote again does not shut the window they opened (#25)', async () => {
    const user = '254733000003';
    await late.fake.sendText(user, 'hi');
    await waitFor(() => late.conversation.handled.length === 2, 5000, 'hi');
    late.fake.openWindow(user);
    await late.channel.adapter.send(user, update('D-ord12-MN'), 'en');
    const refused = late.fake.to(user).at(-1)!;
    expect(refused.type).toBe('interactive');
    await new Promise((r) => setTimeout(r, 20));
    await late.fake.sendText(user, 'still there?');
    await waitFor(() => late.conversation.handled.length === 3, 5000, 'the second message');
    expect(await late.fake.status(refused, 'failed', 131047)).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    await late.channel.idle();
    const sent = late.fake.to(user).length;
    await late.channel.adapter.send(user, { texts: [{ id: 'core-menu-title' }] }, 'en');
    expect(
      late.fake
        .to(user)
        .slice(sent)
        .map((m) => m.type),
    ).toEqual(['text']);
  });

  it('an order update reported undeliverable (131026) is handed to support', async () => {
    const user = '254733000002';
    await late.fake.sendText(user, 'hi');
    await waitFor(() => late.conversation.handled.length === 4, 5000, 'hi');
    late.fake.failNext({ code: 131026, async: true });
    await late.channel.adapter.send(user, update('D-und12-KL'), 'en');
    await waitFor(() => late.escalations.length === 1, 5000, 'the escalation');
    expect(late.escalations[0]).toMatchObject({ orderId: 'D-und12-KL', code: 131026, user: { id: user } });
    // Delivered and read statuses change nothing.
    await late.fake.status(late.fake.to(user).at(-1)!, 'delivered');
    await late.channel.idle();
    expect(late.escalations).toHaveLength(1);
  });
});
