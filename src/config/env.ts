/**
 * Settings from the environment, validated with zod at start. Every variable is documented in
 * `.env.example`. A capability with many settings of its own (chains) exports its schema piece from
 * its folder and is merged here.
 */

import * as z from 'zod';
import { ConfigError, parseEnv } from '../domain/env.js';
import { redisUrlSchema } from './redis-url.js';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');
/** A comma-separated list, blanks dropped. */
const commaList = () =>
  z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
/** An empty value (`NAME=` in a .env file) reads as unset. */
const unsetIfEmpty = (v: unknown) => (v === '' ? undefined : v);
const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(unsetIfEmpty, z.coerce.number().int().min(min).max(max).default(def));
const port = (def: number) => int(def, 0, 65_535);
const optionalUrl = z.preprocess(unsetIfEmpty, z.url().optional());
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v));
/** A secret: unset when empty, else at least `min` characters (a guessable secret is refused by name). */
const secret = (min: number, hint = '') =>
  z.preprocess(unsetIfEmpty, z.string().min(min, `at least ${min} characters${hint}`).optional());

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /**
   * Default info; in the terminal chat, where logs would print into the conversation, error (or
   * info when LOG_FILE takes them out of the terminal).
   */
  LOG_LEVEL: z.preprocess(
    unsetIfEmpty,
    z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).optional(),
  ),
  /** Write the JSON logs to this file (appended) instead of stdout, or stderr in the terminal chat. */
  LOG_FILE: optionalString,
  /** One Redis, or a primary behind Redis Sentinel (`redis+sentinel://…`, ./redis-url.ts). */
  REDIS_URL: z.preprocess(unsetIfEmpty, redisUrlSchema.optional()),
  HTTP_PORT: port(8080),
  /** Where the HTTP server listens; default 127.0.0.1, or 0.0.0.0 when a webhook or PUBLIC_URL needs outside reach. */
  HTTP_HOST: optionalString,
  /**
   * When set, /metrics needs `Authorization: Bearer <METRICS_TOKEN>`; unset, /metrics answers only
   * direct loopback requests (required in production when HTTP_HOST is not loopback).
   */
  METRICS_TOKEN: secret(32, ' (e.g. `openssl rand -hex 32`)'),
  PUBLIC_URL: optionalUrl,

  RAMP_BASE_URL: optionalUrl,
  /**
   * 1: use the built-in ramp sandbox (no real money) even in production, e.g. for a staging bot.
   * Without it, production refuses to start without RAMP_BASE_URL; local mode uses the sandbox anyway.
   */
  RAMP_SANDBOX: bool.default(false),
  RAMP_API_KEY: optionalString,
  RAMP_API_SECRET: optionalString,
  RAMP_API_GENERATION: z.enum(['current', 'legacy']).default('current'),
  RAMP_LEGACY_BRAND: z
    .string()
    .regex(/^[a-z0-9]+$/, 'lowercase letters and digits')
    .default('svc'),
  RAMP_CHECKOUT_URL: optionalUrl,
  RAMP_CHECKOUT_SECRET: secret(16),
  RAMP_PROJECT: z.string().min(1).default('rampchat'),
  RAMP_TIMEOUT_MS: int(15_000, 100),

  SANDBOX_PORT: port(8787),
  SANDBOX_API_KEY: z.string().min(1).default('sandbox-key'),
  SANDBOX_API_SECRET: z.string().min(1).default('sandbox-secret'),
  SANDBOX_CHECKOUT_SECRET: z.string().min(1).default('sandbox-checkout-secret'),
  SANDBOX_KES_PER_USD: z.coerce.number().positive().default(129.5),
  SANDBOX_SETTLE_MS: int(4000),

  RATE_TOLERANCE_PCT: z.coerce.number().min(0).max(100).default(1),

  /** STK pushes to a number not proven the user's own (see src/limits). */
  LIMIT_STK_INFLIGHT_MS: int(90_000, 0),
  LIMIT_STK_PER_PHONE: int(3, 1),
  LIMIT_STK_PHONE_WINDOW_MS: int(10 * 60_000, 1000),
  LIMIT_STK_PER_USER: int(5, 1),
  LIMIT_STK_USER_WINDOW_MS: int(3600_000, 1000),
  /** Sales: signing links created and transaction hashes sent in, per chat user. */
  LIMIT_SELL_LINKS_PER_USER: int(10, 1),
  LIMIT_SELL_LINKS_WINDOW_MS: int(3600_000, 1000),
  LIMIT_SELL_HASHES_PER_USER: int(10, 1),
  LIMIT_SELL_HASHES_WINDOW_MS: int(3600_000, 1000),
  /** Support: new cases (each a forum topic) and refund tickets (each a ramp call) per chat user. */
  LIMIT_SUPPORT_CASES_PER_USER: int(3, 1),
  LIMIT_SUPPORT_CASES_WINDOW_MS: int(3600_000, 1000),
  LIMIT_SUPPORT_TICKETS_PER_USER: int(3, 1),
  LIMIT_SUPPORT_TICKETS_WINDOW_MS: int(24 * 3600_000, 1000),
  FLOW_TTL_SECONDS: int(86_400, 60),
  /**
   * Where the order journal is kept (a folder on a volume, outside Redis): with it, orders are found
   * again when Redis comes back empty. Default `data` when REDIS_URL is set; unused without Redis.
   */
  DATA_DIR: optionalString,
  /**
   * The secret the order journal's phone numbers and chat ids are encrypted with (32+ characters,
   * e.g. `openssl rand -hex 32`). Required in production with REDIS_URL; without it (local mode) a
   * key is generated beside the journal. Changing it makes older entries unreadable.
   */
  JOURNAL_KEY: z.preprocess(unsetIfEmpty, z.string().min(32, 'at least 32 characters').optional()),
  /** How far back the recovery after an empty Redis looks (the journal keeps this much). */
  RECOVERY_HORIZON_MS: int(48 * 3600_000, 60_000),
  /** How often a running process checks whether Redis came back empty. */
  RECOVERY_CHECK_MS: int(30_000, 1000),
  /** The recovery pass's lease: renewed while the pass runs, so a holder that died frees it this soon. */
  RECOVERY_LEASE_MS: int(15_000, 100),
  /** How long a graceful stop may take before the process exits anyway. */
  SHUTDOWN_TIMEOUT_MS: int(20_000, 1000),
  /** How long each outside service may take to answer at start (Redis, Telegram getMe / setWebhook). */
  START_TIMEOUT_MS: int(15_000, 500),

  TELEGRAM_BOT_TOKEN: optionalString,
  TELEGRAM_API_ROOT: optionalUrl,
  TELEGRAM_WEBHOOK_URL: optionalUrl,
  TELEGRAM_WEBHOOK_SECRET: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .regex(
        /^[A-Za-z0-9_-]{32,256}$/,
        '32-256 characters A-Z, a-z, 0-9, _ and - (Telegram allows up to 256)',
      )
      .optional(),
  ),

  /**
   * The bot's messages per second, across every replica (Telegram allows about 30; a second 429
   * within a minute slows the line further for a minute on its own).
   */
  TELEGRAM_SENDS_PER_SECOND: int(27, 1, 1000),
  /**
   * Paid broadcast (off when unset): an order's outcome that has waited this long in a deep line
   * goes with `allow_paid_broadcast` (0.1 Star a message from the bot's balance, up to 1000 a second).
   */
  TELEGRAM_PAID_BROADCAST_AFTER_MS: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(0).optional()),
  /** Paid messages per second across every replica (Telegram allows up to 1000). */
  TELEGRAM_PAID_SENDS_PER_SECOND: int(900, 1, 1000),

  POLL_INTERVAL_MS: int(5000, 100),
  ONRAMP_HORIZON_MS: int(10 * 60_000, 1000),
  OFFRAMP_HORIZON_MS: int(24 * 60 * 60_000, 1000),
  TRACKER_CONCURRENCY: int(200, 1),
  /** A dead worker's release or final message is taken over after this (floor: 2x RAMP_TIMEOUT_MS + 10 s). */
  TRACKER_CLAIM_STALE_MS: int(120_000, 1000),

  WHATSAPP_ENABLED: bool.default(false),
  WHATSAPP_PAIRING_NUMBER: optionalString,
  /** baileys (unofficial client, QR pairing, numbered menus) or cloud (Meta's official Cloud API). */
  WHATSAPP_TRANSPORT: z.preprocess(unsetIfEmpty, z.enum(['baileys', 'cloud']).default('baileys')),
  /** Cloud API: a system user's access token with whatsapp_business_messaging. */
  WHATSAPP_CLOUD_TOKEN: optionalString,
  /** Cloud API: the business phone number's ID (WhatsApp Manager > API Setup), not the number itself. */
  WHATSAPP_PHONE_NUMBER_ID: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .regex(/^\d{5,25}$/, 'the numeric phone number ID from API Setup')
      .optional(),
  ),
  /** Cloud API: the Meta app's secret; every webhook POST is checked against its signature. */
  WHATSAPP_APP_SECRET: secret(16),
  /** Cloud API: the verify token typed into the app's webhook settings (16-128 characters). */
  WHATSAPP_VERIFY_TOKEN: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .regex(/^[A-Za-z0-9_.~-]{16,128}$/, '16-128 characters A-Z, a-z, 0-9, _ . ~ and -')
      .optional(),
  ),
  /** Cloud API: the Graph API root with its version (tests point it at a local fake). */
  WHATSAPP_GRAPH_API_URL: z.preprocess(unsetIfEmpty, z.url().default('https://graph.facebook.com/v23.0')),
  /** Cloud API: the approved template order updates go out as once the 24-hour window has closed. */
  WHATSAPP_TEMPLATE_NAME: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .regex(/^[a-z0-9_]{1,512}$/, 'lowercase letters, digits and _ (as in WhatsApp Manager)')
      .default('rampchat_update'),
  ),
  /** Cloud API: the template's language code for English and for Kiswahili users. */
  WHATSAPP_TEMPLATE_LANGUAGE_EN: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'a language code such as en or en_US')
      .default('en'),
  ),
  WHATSAPP_TEMPLATE_LANGUAGE_SW: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'a language code such as sw')
      .default('sw'),
  ),
  /** Cloud API: messages per second this number may send, shared by all processes (Meta allows 80). */
  WHATSAPP_CLOUD_MPS: int(60, 1, 1000),
  /** Cloud API: a message older than this by its timestamp is not answered (a replay, a very late delivery). */
  WHATSAPP_MAX_MESSAGE_AGE_MS: int(24 * 3600_000, 60_000),

  /** The support groups, comma-separated (`-100…`); new cases are spread across them. */
  SUPPORT_CHAT_ID: commaList().pipe(
    z
      .array(z.string().regex(/^-\d+$/, 'a group id such as -1001234567890'))
      .refine((ids) => new Set(ids).size === ids.length, 'a group is listed twice'),
  ),
  SUPPORT_AGENT_IDS: commaList(),
  SUPPORT_ALLOW_ADMINS: bool.default(false),
  SUPPORT_REOPEN_WINDOW_MS: int(2 * 60 * 60_000),

  /** Standing buys: how long a reminder's Pay now stays open before the run passes. */
  SAVINGS_WINDOW_MS: int(6 * 3600_000, 60_000),
  /** Standing buys a user may have at once. */
  SAVINGS_MAX_PLANS: int(5, 1, 50),
  /** Standing buys: reminders one process hands to the channels at once (each waits its turn in the outbound line). */
  SAVINGS_CONCURRENCY: int(500, 1, 100_000),
  /** Standing buys: how long a taken plan is one process's before another may take it (renewed while it works). */
  SAVINGS_LEASE_MS: int(30_000, 1000),

  SIGNING_LINK_TTL_MS: int(30 * 60_000, 1000),
  WALLETCONNECT_PROJECT_ID: optionalString,
});

export type Config = z.infer<typeof envSchema>;

/** Defined in the leaf `src/domain/env.ts` (the chains use them too); callers keep importing them here. */
export { ConfigError, parseEnv };

/** Settings that only make sense with a partner; each issue names the missing variable. */
function missingPartners(config: Config): string[] {
  const issues: string[] = [];
  const needs = (name: keyof Config, because: string) => {
    if (!config[name]) issues.push(`${name}: required because ${because} is set`);
  };
  if (config.RAMP_BASE_URL && config.RAMP_SANDBOX)
    issues.push(
      'RAMP_SANDBOX: set together with RAMP_BASE_URL; use one (RAMP_SANDBOX=1 is the test sandbox)',
    );
  if (config.RAMP_BASE_URL) {
    needs('RAMP_API_KEY', 'RAMP_BASE_URL');
    needs('RAMP_API_SECRET', 'RAMP_BASE_URL');
  }
  if (config.TELEGRAM_WEBHOOK_URL) {
    needs('TELEGRAM_BOT_TOKEN', 'TELEGRAM_WEBHOOK_URL');
    needs('TELEGRAM_WEBHOOK_SECRET', 'TELEGRAM_WEBHOOK_URL');
  }
  if (config.WHATSAPP_ENABLED && config.WHATSAPP_TRANSPORT === 'cloud') {
    for (const name of [
      'WHATSAPP_CLOUD_TOKEN',
      'WHATSAPP_PHONE_NUMBER_ID',
      'WHATSAPP_APP_SECRET',
      'WHATSAPP_VERIFY_TOKEN',
      'REDIS_URL',
    ] as const)
      needs(name, 'WHATSAPP_TRANSPORT=cloud');
  }
  return issues;
}

/** Loads and validates the core settings, including those that need a partner setting. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config = parseEnv(envSchema, env);
  const issues = missingPartners(config);
  if (issues.length > 0) throw new ConfigError(issues);
  return config;
}

/**
 * Where the HTTP server listens. Local mode (nothing reaches in from outside) listens on loopback
 * only; a webhook (Telegram's, the WhatsApp Cloud API's) or a public signing-page address needs all
 * interfaces. HTTP_HOST overrides.
 */
export function httpHostOf(config: Config): string {
  if (config.HTTP_HOST) return config.HTTP_HOST;
  const cloudWebhook = config.WHATSAPP_ENABLED && config.WHATSAPP_TRANSPORT === 'cloud';
  return config.TELEGRAM_WEBHOOK_URL || config.PUBLIC_URL || cloudWebhook ? '0.0.0.0' : '127.0.0.1';
}

/** A loopback address (127.0.0.0/8, ::1, localhost): nothing outside this machine reaches it. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '::ffff:127.0.0.1';
}
