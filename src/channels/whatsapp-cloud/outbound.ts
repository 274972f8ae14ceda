/**
 * Messages out over the Cloud API: rendered (render.ts), paced (pacer.ts), retried where Meta says
 * to wait, sent as the approved template once the 24-hour window has closed (window.ts), and, when
 * a user can no longer be told, an order update is handed to support instead of being lost.
 * Meta reports some failures later, in a status webhook: `onStatus` handles those the same way.
 */
import type { RedisClientType } from 'redis';
import { z } from 'zod';
import type { Locale, OutMessage, UserRef } from '../../chat/types.js';
import { ORDER_ID_PATTERN } from '../../domain/order-id.js';
import { maskPhone, normalizeKenyanPhone } from '../../domain/phone.js';
import type { Logger } from '../../log/logger.js';
import type { Translator } from '../whatsapp/menu.js';
import {
  type GraphClient,
  GraphError,
  isPairRate,
  type Remedy,
  remedyOf,
  type WireMessage,
} from './graph.js';
import type { CloudKeys } from './keys.js';
import type { CloudMetrics } from './metrics.js';
import type { CloudPacer } from './pacer.js';
import { type Rendered, renderCloud } from './render.js';
import type { MessageStatus } from './schemas.js';
import { type TemplateSettings, templateMessage } from './template.js';
import type { WindowBook } from './window.js';

/** What support is handed when an order update cannot reach its user (see src/support/escalation.ts). */
export interface UndeliverableEscalation {
  reason: 'undeliverable';
  user: UserRef;
  orderId?: string;
  /** Meta's error code, when it gave one. */
  code?: number;
  /** For the agents: what failed and what the user was not told. */
  detail: string;
  at: number;
}

export interface RetryOptions {
  /** Tries per message (default 4). */
  attempts?: number;
  /** First pause after a retryable refusal, doubled each time (default 1000 ms). */
  baseMs?: number;
  /** First pause after a pair-rate refusal (default 6000 ms). */
  pairMs?: number;
}

export interface OutboundDeps {
  graph: GraphClient;
  pacer: CloudPacer;
  book: WindowBook;
  redis: RedisClientType;
  keys: CloudKeys;
  i18n: Translator;
  template: TemplateSettings;
  metrics: CloudMetrics;
  logger: Logger;
  retry?: RetryOptions;
  /** Menus a user can answer by typing live this long (default one day). */
  menuTtlSeconds?: number;
  onUndeliverable?: (e: UndeliverableEscalation) => Promise<void>;
  now?: () => number;
}

export interface Outbound {
  /** The channel adapter's send: one OutMessage to a user who wrote to us before. */
  send(waId: string, message: OutMessage, locale: Locale): Promise<void>;
  /** A plain text the channel itself says (inside the window: the user just wrote). */
  say(waId: string, text: string): Promise<void>;
  /** A status webhook about one of our messages: a failure is acted on once. */
  onStatus(status: MessageStatus): Promise<void>;
}

const OUTGOING_TTL_SECONDS = 3 * 24 * 3600;
const outgoingSchema = z.object({
  waId: z.string(),
  locale: z.enum(['en', 'sw']),
  template: z.boolean(),
  tries: z.number().int(),
  message: z.custom<OutMessage>((v) => typeof v === 'object' && v !== null && 'texts' in v),
});
type Outgoing = z.infer<typeof outgoingSchema>;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Whole phone numbers in a text (`+254 712 345 678`, `0712345678`, …) masked, for the agents' card. */
const WHOLE_PHONE = /(?:\+?254|\b0)\s?[17]\d{2}\s?\d{3}\s?\d{3}\b/g;
export const maskPhonesIn = (text: string): string =>
  text.replace(WHOLE_PHONE, (m) => maskPhone(normalizeKenyanPhone(m) ?? m.replace(/\s/g, '')));

/** Creates the outbound side. */
export function createOutbound(deps: OutboundDeps): Outbound {
  const { graph, pacer, book, redis, keys, i18n, metrics } = deps;
  const now = deps.now ?? Date.now;
  const attempts = deps.retry?.attempts ?? 4;
  const baseMs = deps.retry?.baseMs ?? 1000;
  const pairMs = deps.retry?.pairMs ?? 6000;
  const menuTtl = deps.menuTtlSeconds ?? 86_400;
  const log = deps.logger.child({ channel: 'whatsapp', transport: 'cloud' });

  /** One message, paced, retried while Meta says to wait. */
  async function post(waId: string, message: WireMessage): Promise<string> {
    for (let n = 0; ; n++) {
      await pacer.slot(waId);
      try {
        const id = await graph.send(waId, message);
        metrics.sent.inc({ kind: message.type });
        return id;
      } catch (err) {
        const remedy: Remedy = err instanceof GraphError ? err.remedy : 'fatal';
        metrics.failed.inc({ remedy });
        if (remedy !== 'retry' || n + 1 >= attempts) throw err;
        const pause = (isPairRate(err) ? pairMs : baseMs) * 2 ** n * (0.75 + Math.random() / 2);
        log.warn(
          { code: (err as GraphError).code, attempt: n + 1, pauseMs: Math.round(pause) },
          'Graph API asked us to wait; sending again',
        );
        await sleep(pause);
      }
    }
  }

  async function remember(id: string, rec: Outgoing): Promise<void> {
    await redis.set(keys.outgoing(id), JSON.stringify(rec), {
      expiration: { type: 'EX', value: OUTGOING_TTL_SECONDS },
    });
  }

  /** Saves what a typed answer means and which message holds the question's buttons. */
  async function afterSent(
    waId: string,
    message: OutMessage,
    rendered: Rendered,
    lastId: string,
  ): Promise<void> {
    const writes: Promise<unknown>[] = [];
    if (rendered.menu) {
      const key = (message.notice ? keys.noticeMenu : keys.menu)(waId);
      writes.push(
        redis.set(key, JSON.stringify(rendered.menu), { expiration: { type: 'EX', value: menuTtl } }),
      );
    }
    if (rendered.menu && !message.notice)
      writes.push(redis.set(keys.question(waId), lastId, { expiration: { type: 'EX', value: menuTtl } }));
    await Promise.all(writes);
  }

  async function undeliverable(
    waId: string,
    message: OutMessage,
    rendered: Rendered,
    err: unknown,
  ): Promise<void> {
    const code = err instanceof GraphError ? err.code : undefined;
    const why = err instanceof Error ? err.message : String(err);
    const notice = message.notice === true;
    metrics.undeliverable.inc({ notice: String(notice) });
    log.error({ phone: waId, code, notice }, 'a WhatsApp message could not reach the user');
    if (!notice || !deps.onUndeliverable) return;
    const key = message.replaceKey ?? '';
    const orderId =
      key.startsWith('order:') && ORDER_ID_PATTERN.test(key.slice(6)) ? key.slice(6) : undefined;
    await deps.onUndeliverable({
      reason: 'undeliverable',
      user: { channel: 'whatsapp', id: waId },
      ...(orderId ? { orderId } : {}),
      ...(code !== undefined ? { code } : {}),
      detail: `WhatsApp could not deliver this update to ${maskPhone(waId)} (${why.slice(0, 160)}); the user was not told: ${maskPhonesIn(rendered.summary).slice(0, 300)}`,
      at: now(),
    });
  }

  /** Outside the window: the template carries the gist, the message itself waits for the user. */
  async function viaTemplate(
    waId: string,
    message: OutMessage,
    locale: Locale,
    rendered: Rendered,
  ): Promise<void> {
    await book.hold(waId, { locale, message });
    let id: string;
    try {
      id = await post(waId, templateMessage(deps.template, locale, rendered.summary));
    } catch (err) {
      await undeliverable(waId, message, rendered, err);
      return;
    }
    log.info({ phone: waId }, 'the 24-hour window is closed: sent the update as the approved template');
    await remember(id, { waId, locale, message, template: true, tries: 0 });
  }

  async function deliver(waId: string, message: OutMessage, locale: Locale, tries: number): Promise<void> {
    const rendered = renderCloud(message, locale, i18n);
    if (!rendered.parts.length) return;
    if (!(await book.isOpen(waId, now()))) return viaTemplate(waId, message, locale, rendered);
    let lastId = '';
    for (const part of rendered.parts) {
      try {
        lastId = await post(waId, part);
      } catch (err) {
        if (err instanceof GraphError && err.remedy === 'window')
          return viaTemplate(waId, message, locale, rendered);
        return undeliverable(waId, message, rendered, err);
      }
    }
    await remember(lastId, { waId, locale, message, template: false, tries });
    await afterSent(waId, message, rendered, lastId);
  }

  return {
    async send(waId, message, locale) {
      if (!(await book.isContact(waId))) {
        log.warn({ phone: waId }, 'not sending: this WhatsApp user never wrote to us');
        return;
      }
      await redis.hSet(keys.locales, waId, locale);
      await deliver(waId, message, locale, 0);
    },

    async say(waId, text) {
      try {
        await post(waId, { type: 'text', text: { body: text, preview_url: false } });
      } catch (err) {
        log.warn({ phone: waId, err: (err as Error).message }, 'could not send a channel message');
      }
    },

    async onStatus(status) {
      if (status.status !== 'failed') return;
      // GETDEL: Meta may report a failure twice; it is acted on once.
      const raw = await redis.getDel(keys.outgoing(status.id));
      if (!raw) return;
      const parsed = outgoingSchema.safeParse(JSON.parse(raw));
      if (!parsed.success) return;
      const rec = parsed.data;
      const code = status.errors?.[0]?.code;
      const remedy = remedyOf(code);
      const rendered = renderCloud(rec.message, rec.locale, i18n);
      log.warn(
        { phone: rec.waId, code, remedy, template: rec.template },
        'Meta reports a message of ours failed',
      );
      if (remedy === 'window' && !rec.template)
        return viaTemplate(rec.waId, rec.message, rec.locale, rendered);
      if (remedy === 'retry' && rec.tries < 2 && !rec.template)
        return deliver(rec.waId, rec.message, rec.locale, rec.tries + 1);
      const err = new GraphError(
        `status failed (#${code ?? '?'}): ${status.errors?.[0]?.title ?? 'no reason given'}`,
        400,
        code,
      );
      await undeliverable(rec.waId, rec.message, rendered, err);
    },
  };
}
