/**
 * What a user actually got of an agent's reply, for the topic and the card: on WhatsApp outside the
 * 24-hour window the approved template, in their language (the whole reply then, or when they next
 * write if the template could not carry it all); otherwise the whole message.
 */
import type { Locale } from '../../chat/types.js';
import type { Delivery } from '../../outbound/index.js';
import type { SupportCase } from '../case/case.js';
import { markCard, mirror } from './case-topic.js';
import type { DeskContext } from './context.js';
import { t } from './context.js';

/** Notes on the case what the user read and in which language; the topic is told of a template. */
export async function noteDelivery(ctx: DeskContext, c: SupportCase, d: Delivery): Promise<SupportCase> {
  const lastRead = d.form === 'template' && d.held ? 'template' : 'whole';
  const updated =
    (await ctx.store.update(c.id, (x) => ({
      ...x,
      ...(d.locale ? { userLocale: d.locale } : {}),
      lastRead,
      heldReply: d.form === 'template' && d.held === true,
    }))) ?? c;
  if (d.form === 'template')
    await mirror(
      ctx,
      updated,
      [t('support-topic-sent-template', { locale: d.locale ?? 'en', held: d.held ? 'yes' : 'no' })],
      false,
    );
  markCard(ctx, updated);
  return updated;
}

/**
 * The user wrote again (in `locale`): a reply held for the window went to them in full just before
 * (the channel sends held messages first). Cleared once, whichever instance sees it first, and the
 * topic told.
 */
export async function userWrote(ctx: DeskContext, c: SupportCase, locale?: Locale): Promise<SupportCase> {
  if (!c.heldReply && (!locale || c.userLocale === locale)) return c;
  let cleared = false;
  const updated =
    (await ctx.store.update(c.id, (x) => {
      cleared = x.heldReply === true;
      if (!cleared && (!locale || x.userLocale === locale)) return undefined;
      return {
        ...x,
        ...(locale ? { userLocale: locale } : {}),
        ...(cleared ? { heldReply: false, lastRead: 'whole' as const } : {}),
      };
    })) ?? c;
  markCard(ctx, updated);
  if (!cleared) return updated;
  return mirror(
    ctx,
    updated,
    [t('support-topic-held-delivered', { locale: updated.userLocale ?? 'en' })],
    false,
  );
}
