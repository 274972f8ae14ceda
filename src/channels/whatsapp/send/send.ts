/**
 * Outbound: messages become text with numbered menus, sent only to people who wrote first. The
 * menu a reply is read against is the last one the user could see, so it is saved once sent.
 */
import { withClass } from '../../../outbound/index.js';
import { classOfMessage } from '../../outbound-class.js';
import type { ChannelAdapter } from '../../types.js';
import type { WhatsAppDeps } from '../deps.js';
import { renderMessage } from './menu.js';

/** The channel adapter the conversation engine sends through. */
export function createWhatsAppAdapter(deps: WhatsAppDeps): ChannelAdapter {
  const { redis, keys, log } = deps;
  return {
    name: 'whatsapp',
    capabilities: { editMessages: false, buttons: false },
    async send(userId, message, locale, _scratch, scope): Promise<void> {
      if (!(await deps.identities.isContact(userId))) {
        deps.metrics.refusedSends.inc({ number: deps.numberId });
        log.warn({ phone: userId }, 'Not sending: this WhatsApp user never wrote to us first');
        return;
      }
      const { text, menu } = renderMessage(message, locale, deps.i18n);
      await redis.hSet(keys.locales, userId, locale);
      // The menu answers are read against is the last one the user could see: saved once sent. A
      // notice's lettered choices are kept apart, so they never change what a typed number means.
      const saved = menu
        ? {
            key: (menu.lettered ? keys.noticeMenu : keys.menu)(userId),
            json: JSON.stringify(menu),
            ttlSeconds: deps.menuTtlSeconds,
          }
        : undefined;
      const jid = `${userId}@s.whatsapp.net`;
      await deps.deliver(jid, text, saved, message.media, withClass(scope, classOfMessage(message)));
    },
  };
}
