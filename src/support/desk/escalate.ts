/**
 * A case opened by the system: the tracker or the sell path could not finish an order. The case
 * takes what they know of the order, its topic says why, and the user is told once (unless the
 * escalation says they already were).
 */
import type { SupportCase } from '../case/case.js';
import type { Escalation } from '../case/escalation.js';
import { talkButton } from '../flow.js';
import { mirror } from './case-topic.js';
import { caseFor, phoneOf, type Seed } from './cases.js';
import { caseLog, type DeskContext, notifyUser, record, t } from './context.js';

/** What the escalation knows of the order, for the case. */
const seedOf = (e: Escalation): Seed => ({
  phone: phoneOf(e.user, e.phone),
  network: e.network,
  wallet: e.wallet,
  amountKes: e.amountKes,
  tokenAmount: e.tokenAmount,
  symbol: e.symbol,
  lastStatus: e.lastStatus,
  lastError: e.lastError,
  receipt: e.receipt,
  txHash: e.txHash,
  ...(e.side ? { side: e.side } : {}),
});

/** Which "support has your case" text the user gets: with or without an order, with or without agents. */
function alertTextId(ctx: DeskContext, c: SupportCase): string {
  if (!ctx.groups.length) return c.orderId ? 'support-alerted-offline' : 'support-alerted-general';
  return c.orderId ? 'support-alerted' : 'support-alerted-general';
}

/** Tells the user once that support has the case (or notes that they were told already). */
async function alertUser(
  ctx: DeskContext,
  c: SupportCase,
  userTold: boolean | undefined,
): Promise<SupportCase> {
  if (c.userAlerted) return c;
  if (!userTold)
    await notifyUser(ctx, c, {
      texts: [t(alertTextId(ctx, c), { caseId: c.id, orderId: c.orderId ?? '' })],
      buttons: [[talkButton(c.orderId)]],
      // Outside WhatsApp's window the template carrying it whole is enough: it does not come twice.
      templateSuffices: true,
    });
  return (await ctx.store.update(c.id, (x) => ({ ...x, userAlerted: true }))) ?? c;
}

/** Opens (or finds, or reopens) the case for an escalation and posts why in its topic. */
export async function escalate(ctx: DeskContext, e: Escalation): Promise<SupportCase> {
  const at = e.at ?? ctx.now();
  const found = await caseFor(ctx, e.user, e.orderId, e.reason, seedOf(e), 'system');
  let c = found.case;
  if (found.status !== 'opened')
    c = await record(ctx, c, { at, kind: 'escalated', by: 'system', reason: e.reason });
  ctx.log.warn({ ...caseLog(c), reason: e.reason, status: found.status }, 'order escalated to support');
  const topic = c.topic;
  if (found.status === 'reopened' && topic) ctx.later(c, (g) => g.reopen(topic.threadId).catch(() => {}));
  // The topic is queued at once (it waits for the group's budget, not for the user's chat), and the
  // user is told at once.
  await mirror(ctx, c, [
    t('support-topic-escalated', { reason: e.reason }),
    ...(e.detail ? [t('support-topic-escalated-detail', { detail: e.detail })] : []),
  ]);
  return alertUser(ctx, c, e.userTold);
}
