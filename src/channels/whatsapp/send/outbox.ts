/**
 * The number's outbox (src/outbound/outbox.ts): every message to a WhatsApp chat is kept in Redis
 * with the menu to save once it is sent, until the instance holding the number's connection sent
 * it. Only that instance works the outbox (from the socket opening until it closes or stops); any
 * instance may put into it, and the holder takes those chats up at its next look.
 */
import type { Logger } from '../../../log/logger.js';
import { createOutbox, type Outbox, redisOutboxStore } from '../../../outbound/index.js';
import type { MediaStore } from '../../../store/media.js';
import type { WhatsAppKeys, WhatsAppRedis } from '../redis.js';
import type { WhatsAppSocket } from '../session/socket.js';
import type { WhatsAppPacing } from './pacer.js';

/** What a message is in the outbox: its text, and the menu saved once it went. */
export interface BaileysBody {
  text: string;
  /** A picture's media store reference: sent as an image with `text` as its caption. */
  image?: string;
  /** A document's media store reference, name and MIME type: sent as a file with `text` as its caption. */
  document?: { ref: string; filename: string; mime: string };
  menu?: { key: string; json: string; ttlSeconds: number };
}

export interface BaileysOutboxDeps {
  redis: WhatsAppRedis;
  keys: WhatsAppKeys;
  pacing: WhatsAppPacing;
  log: Logger;
  /** The open socket (the connection's `whenOpen`). */
  socket(): Promise<WhatsAppSocket>;
  /** Where pictures are read from at their turn; without it (or once gone) the text goes alone. */
  media?: MediaStore;
}

export function createBaileysOutbox(deps: BaileysOutboxDeps): Outbox {
  const { redis, pacing, log } = deps;
  return createOutbox({
    store: redisOutboxStore(redis, `${deps.keys.base}outbox:`),
    line: pacing.line,
    lanesOf: (jid) => pacing.lanesOf(jid),
    autoStart: false,
    logger: log,
    async send(raw, _turn, jid) {
      const body = raw as BaileysBody;
      const s = await deps.socket();
      try {
        const image = body.image ? await deps.media?.get(body.image) : undefined;
        const doc = body.document ? await deps.media?.get(body.document.ref) : undefined;
        await s.sendMessage(
          jid,
          doc && body.document
            ? {
                document: doc,
                mimetype: body.document.mime,
                fileName: body.document.filename,
                caption: body.text,
              }
            : image
              ? { image, caption: body.text }
              : { text: body.text },
        );
      } catch (err) {
        const throttled = pacing.throttleOf(err);
        if (!throttled) throw err;
        log.warn({ holdMs: throttled.retryAfterMs }, 'WhatsApp said rate-overlimit: every chat waits');
        return throttled;
      }
      // The menu a reply is read against is the last one the user could see: saved once sent.
      if (body.menu)
        await redis.set(body.menu.key, body.menu.json, {
          expiration: { type: 'EX', value: body.menu.ttlSeconds },
        });
      return null;
    },
  });
}
