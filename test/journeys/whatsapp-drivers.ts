/**
 * One WhatsApp user, driven the same way over either transport, against the whole app (startApp:
 * the sandbox, Redis, the sweep tracker, selling on the local dev chain, the support desk on the
 * fake Bot API). baileys: messages enter through baileys' event emitter (recording socket) and a
 * choice is answered with its number (or a notice's letter). cloud: Meta's side is the fake Graph
 * API, posting signed webhooks to the app's HTTP server, and a choice is a tap on the button or
 * list row (or a number where the menu is a numbered text).
 */
import { PassThrough } from 'node:stream';
import { type App, startApp } from '../../src/app/start.js';
import { cloudKeys } from '../../src/channels/whatsapp-cloud/index.js';
import { loadConfig } from '../../src/config/env.js';
import { message, RecordingSocket } from '../channels/whatsapp/helpers.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { FakeWhatsAppGraphApi, type SentMessage } from '../fakes/whatsapp-graph-api.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';

export type Transport = 'baileys' | 'cloud';
export const TRANSPORTS: Transport[] = ['baileys', 'cloud'];

export const TG_TOKEN = '123456789:WhatsAppJourneyDeskToken_abcdefghij';
export const SUPPORT_CHAT = -1001234777;
export const AGENT = 601;
export const CLOUD = {
  token: 'EAAG-journey-cloud-token-0123456789',
  phoneNumberId: '106540352242000',
  appSecret: 'journey-app-secret-0123456789abcdef',
  verifyToken: 'journey-verify-token-0123456789',
};

/** One user's side of the chat. */
export interface WaUser {
  readonly waId: string;
  /** Everything the bot sent this user, as they read it, in order. */
  texts(): string[];
  /** Types a message; returns what a redelivery of it needs. */
  say(text: string): Promise<() => Promise<void>>;
  /** Waits for a message sent after the user's last action that contains `expected`. */
  until(expected: string | RegExp, ms?: number): Promise<string>;
  /** Answers the newest choice (since the last action) whose id matches: a tap, or its number. */
  choose(id: RegExp, ms?: number): Promise<() => Promise<void>>;
}

export interface WaRig {
  transport: Transport;
  app: App;
  tg: FakeTelegramBotApi;
  /** The cloud transport's fake Graph API. */
  graph?: FakeWhatsAppGraphApi;
  prefix: string;
  user(waId: string): WaUser;
  /** The pictures a user was sent (uploaded media on the Cloud API, image messages on baileys). */
  images(waId: string): Buffer[];
  /** The documents a user was sent, in order: uploaded and named on the Cloud API, document messages on baileys. */
  documents(waId: string): Array<{ filename: string; mime: string; bytes: Buffer; caption: string }>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(
  check: () => T | undefined | Promise<T | undefined>,
  ms: number,
  what: string,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await sleep(15);
  }
}

const matches = (text: string, expected: string | RegExp) =>
  typeof expected === 'string' ? text.includes(expected) : expected.test(text);

/** Starts the app with WhatsApp on `transport`; `env` adds or overrides settings. */
export async function startWaRig(transport: Transport, env: Record<string, string> = {}): Promise<WaRig> {
  const prefix = uniquePrefix(`wajourney-${transport}`);
  const tg = await FakeTelegramBotApi.start({ token: TG_TOKEN });
  tg.setChat({ id: SUPPORT_CHAT, type: 'supergroup', title: 'Support desk', is_forum: true });
  tg.setChatMember(SUPPORT_CHAT, AGENT, 'member');
  const graph =
    transport === 'cloud'
      ? await FakeWhatsAppGraphApi.start({
          token: CLOUD.token,
          phoneNumberId: CLOUD.phoneNumberId,
          appSecret: CLOUD.appSecret,
        })
      : undefined;
  let socket: RecordingSocket | undefined;
  const config = loadConfig({
    HTTP_PORT: '0',
    HTTP_HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    REDIS_URL: testRedisUrl(),
    TELEGRAM_BOT_TOKEN: TG_TOKEN,
    TELEGRAM_API_ROOT: tg.url,
    SUPPORT_CHAT_ID: String(SUPPORT_CHAT),
    SUPPORT_AGENT_IDS: String(AGENT),
    SANDBOX_SETTLE_MS: '300',
    // https signing links: link buttons where the transport has them (the page itself is not fetched).
    PUBLIC_URL: 'https://rampchat.example',
    POLL_INTERVAL_MS: '100',
    WHATSAPP_ENABLED: '1',
    WHATSAPP_TRANSPORT: transport,
    ...(graph
      ? {
          WHATSAPP_CLOUD_TOKEN: CLOUD.token,
          WHATSAPP_PHONE_NUMBER_ID: CLOUD.phoneNumberId,
          WHATSAPP_APP_SECRET: CLOUD.appSecret,
          WHATSAPP_VERIFY_TOKEN: CLOUD.verifyToken,
          WHATSAPP_GRAPH_API_URL: graph.graphUrl,
        }
      : {}),
    ...env,
  });
  const app = await startApp(config, {
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    redisPrefix: prefix,
    whatsapp: {
      makeSocket: (c) => {
        socket = new RecordingSocket(c);
        return socket;
      },
      pacing: { intervalMs: 5, jitterMs: 1 },
      cloud: { pacing: { pairIntervalMs: 20, pairBurst: 50 }, retry: { baseMs: 20, pairMs: 40 } },
    },
  });
  if (graph) graph.webhookUrl = `${localUrl(app)}/whatsapp/webhook`;
  else await waitFor(() => app.whatsapp?.state === 'open', 8000, 'the baileys connection');

  const redis = app.redis!;
  const idle = async () => {
    await app.whatsappCloud?.idle();
    await app.whatsapp?.idle();
    await app.engine.idle();
  };

  function user(waId: string): WaUser {
    let mark = 0;
    const sent = (): SentMessage[] => graph?.to(waId) ?? [];
    const texts = () =>
      graph
        ? sent().map(FakeWhatsAppGraphApi.textOf)
        : socket!.sent.filter((s) => s.jid === `${waId}@s.whatsapp.net`).map((s) => s.text);
    const act = async (work: () => Promise<void>) => {
      mark = texts().length;
      await work();
    };
    const typed = async (text: string) => {
      if (graph) {
        const { body } = await graph.sendText(waId, text);
        return () => graph.post(body).then(() => undefined);
      }
      const m = message(`${waId}@s.whatsapp.net`, text);
      socket!.receive(m);
      return async () => socket!.receive(m);
    };
    /** The stored numbered (or lettered) menu item matching `id`, as the user would type it. */
    const typedKey = async (id: RegExp): Promise<string | undefined> => {
      const keys = graph ? cloudKeys(`${prefix}wa-cloud:`, CLOUD.phoneNumberId) : undefined;
      const menus = graph
        ? [keys!.menu(waId), keys!.noticeMenu(waId)]
        : [`${prefix}wa:default:menu:${waId}`, `${prefix}wa:default:notice-menu:${waId}`];
      for (const key of menus) {
        const raw = await redis.get(key);
        const menu = raw
          ? (JSON.parse(raw) as { items: { id: string }[]; lettered?: boolean; labelsOnly?: boolean })
          : undefined;
        const index = menu && !menu.labelsOnly ? menu.items.findIndex((item) => id.test(item.id)) : -1;
        if (index >= 0) return menu!.lettered ? String.fromCharCode(65 + index) : String(index + 1);
      }
      return undefined;
    };
    return {
      waId,
      texts,
      async say(text) {
        let again: () => Promise<void> = async () => {};
        await act(async () => {
          again = await typed(text);
        });
        return again;
      },
      async until(expected, ms = 10_000) {
        return waitFor(
          () =>
            texts()
              .slice(mark)
              .find((t) => matches(t, expected)),
          ms,
          `a message with ${expected}`,
        ).catch((err: Error) => {
          throw new Error(`${err.message}; the user saw:\n${texts().slice(-4).join('\n---\n')}`);
        });
      },
      async choose(id, ms = 10_000) {
        const from = mark;
        let again: () => Promise<void> = async () => {};
        const tap = await waitFor(
          async () => {
            if (texts().length <= from) return undefined;
            const on = graph
              ? [...sent().slice(from)]
                  .reverse()
                  .find((m) => FakeWhatsAppGraphApi.choicesOf(m).some((c) => id.test(c)))
              : undefined;
            if (on) return { on };
            await idle();
            const key = await typedKey(id);
            return key ? { key } : undefined;
          },
          ms,
          `a choice ${id}`,
        ).catch((err: Error) => {
          throw new Error(`${err.message}; the user saw:\n${texts().slice(-4).join('\n---\n')}`);
        });
        await act(async () => {
          if ('on' in tap && tap.on && graph) {
            const choice = FakeWhatsAppGraphApi.choicesOf(tap.on).find((c) => id.test(c))!;
            const { body } = await graph.tap(waId, tap.on, choice);
            again = () => graph.post(body).then(() => undefined);
          } else again = await typed((tap as { key: string }).key);
        });
        return again;
      },
    };
  }

  return {
    transport,
    app,
    tg,
    graph,
    prefix,
    user,
    images: (waId) =>
      graph
        ? graph
            .to(waId)
            .map((m) => graph.mediaOf(m))
            .filter((b): b is Buffer => b !== undefined)
        : socket!.sent.flatMap((s) => (s.jid === `${waId}@s.whatsapp.net` && s.image ? [s.image] : [])),
    documents: (waId) =>
      graph
        ? graph
            .to(waId)
            .filter((m) => m.type === 'document')
            .map((m) => ({
              filename: m.body.document.filename,
              mime: graph.media.get(m.body.document.id)?.mime ?? '',
              bytes: graph.mediaOf(m)!,
              caption: m.body.document.caption ?? '',
            }))
        : socket!.sent.flatMap((s) =>
            s.jid === `${waId}@s.whatsapp.net` && s.document
              ? [
                  {
                    filename: s.document.fileName,
                    mime: s.document.mimetype,
                    bytes: s.document.bytes,
                    caption: s.text,
                  },
                ]
              : [],
          ),
    async stop() {
      await app.stop();
      await graph?.close();
      await tg.close();
      const r = await connectTestRedis();
      await flushPrefix(r, prefix);
      await r.quit();
    },
  };
}

function localUrl(app: App): string {
  const address = app.http.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return `http://127.0.0.1:${port}`;
}
