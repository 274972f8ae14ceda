/**
 * What a start needs beyond valid values: in every mode, settings that cannot work together; in
 * production (NODE_ENV=production), every part a real deployment needs. Production never falls back
 * to the local stand-ins (the ramp sandbox, the terminal chat, memory state): each missing part is
 * one line naming its setting, and `npm start` exits 2 before anything starts.
 */
import * as z from 'zod';
import { ConfigError, parseEnv } from '../domain/env.js';
import { type Config, httpHostOf, isLoopbackHost } from './env.js';

type Ctx = z.RefinementCtx;
const issue = (ctx: Ctx, name: string, message: string) =>
  ctx.addIssue({ code: 'custom', path: [name], message });

/** An https address (not http, not a loopback host). */
function publicHttps(value: string | undefined): boolean {
  if (!value) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && !isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

/** Secrets a production start refuses when short (their formats, where the issuer fixes one). */
const productionSecrets: Array<[keyof Config, number, string]> = [
  ['RAMP_API_KEY', 8, ''],
  ['RAMP_API_SECRET', 16, ''],
  ['RAMP_CHECKOUT_SECRET', 16, ''],
  ['WHATSAPP_APP_SECRET', 32, " (Meta's app secret, App settings > Basic)"],
  ['WHATSAPP_CLOUD_TOKEN', 32, " (a system user's access token)"],
];

/**
 * Secrets we make ourselves: in production each must look random, not only be long (`aaaa…` or a
 * repeated word is guessable whatever its length).
 */
const generatedSecrets: Array<keyof Config> = [
  'JOURNAL_KEY',
  'METRICS_TOKEN',
  'TELEGRAM_WEBHOOK_SECRET',
  'WHATSAPP_VERIFY_TOKEN',
  'RAMP_CHECKOUT_SECRET',
];
/** Secrets an issuer gives (the ramp, Meta): only refused when plainly not random. */
const issuedSecrets: Array<keyof Config> = ['RAMP_API_SECRET', 'WHATSAPP_APP_SECRET', 'WHATSAPP_CLOUD_TOKEN'];

/** Bits of entropy the characters' own frequencies show (a floor for a random secret's strength). */
function shownBits(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) perChar -= (n / value.length) * Math.log2(n / value.length);
  return perChar * value.length;
}

/** A value that is one piece said again (`abcabcabc…`). */
const repeats = (value: string) => /^(.+?)\1+$/s.test(value);

/** Why a secret is too uniform for production, or undefined. */
export function weakSecret(value: string, generated: boolean): string | undefined {
  const distinct = new Set(value).size;
  if (repeats(value) || distinct < (generated ? 10 : 4) || (generated && shownBits(value) < 80))
    return generated
      ? 'too uniform for production (a guessable pattern): make one with `openssl rand -hex 32`'
      : 'too uniform for production (a repeated pattern): copy the real value from its issuer';
  return undefined;
}

const TELEGRAM_TOKEN = /^\d{5,}:[A-Za-z0-9_-]{30,}$/;

function checkRamp(config: Config, ctx: Ctx): void {
  if (config.RAMP_SANDBOX) return;
  if (!config.RAMP_BASE_URL)
    issue(
      ctx,
      'RAMP_BASE_URL',
      "required in production: the ramp service's https address (the built-in sandbox moves no money; set RAMP_SANDBOX=1 to run it on purpose)",
    );
  else if (!publicHttps(config.RAMP_BASE_URL))
    issue(
      ctx,
      'RAMP_BASE_URL',
      'must be an https address in production (the API key and secret travel with it)',
    );
  if (!config.RAMP_API_KEY) issue(ctx, 'RAMP_API_KEY', "required in production: the ramp service's API key");
  if (!config.RAMP_API_SECRET)
    issue(ctx, 'RAMP_API_SECRET', "required in production: the ramp service's API secret");
  if (config.RAMP_CHECKOUT_URL && !publicHttps(config.RAMP_CHECKOUT_URL))
    issue(ctx, 'RAMP_CHECKOUT_URL', 'must be an https address in production');
}

function checkChannels(config: Config, ctx: Ctx): void {
  if (!config.TELEGRAM_BOT_TOKEN && !config.WHATSAPP_ENABLED)
    issue(
      ctx,
      'TELEGRAM_BOT_TOKEN',
      'production needs a chat channel: set TELEGRAM_BOT_TOKEN (from @BotFather) or WHATSAPP_ENABLED=1 (the terminal chat is local only)',
    );
  if (config.TELEGRAM_BOT_TOKEN && !TELEGRAM_TOKEN.test(config.TELEGRAM_BOT_TOKEN))
    issue(ctx, 'TELEGRAM_BOT_TOKEN', 'not a bot token (<bot id>:<35 characters>, as @BotFather gives it)');
  if (config.TELEGRAM_WEBHOOK_URL && !publicHttps(config.TELEGRAM_WEBHOOK_URL))
    issue(
      ctx,
      'TELEGRAM_WEBHOOK_URL',
      'must be an https address Telegram can reach (Telegram posts only to https)',
    );
}

function checkReach(config: Config, ctx: Ctx): void {
  if (!config.REDIS_URL)
    issue(
      ctx,
      'REDIS_URL',
      'required in production: conversations, order tracking and limits live there (memory state is lost on restart and not shared by replicas)',
    );
  if (!config.PUBLIC_URL)
    issue(
      ctx,
      'PUBLIC_URL',
      'required in production: the https address of this server, for signing links and webhooks (e.g. https://rampchat.example.com)',
    );
  else if (!publicHttps(config.PUBLIC_URL))
    issue(ctx, 'PUBLIC_URL', 'must be a public https address in production (users open signing links there)');
  if (!config.JOURNAL_KEY)
    issue(
      ctx,
      'JOURNAL_KEY',
      'required in production: at least 32 characters, e.g. `openssl rand -hex 32`; it encrypts the phone numbers and chat ids the order journal keeps for recovery',
    );
  // The host as it will be once PUBLIC_URL is set (it is required here): all interfaces by default.
  const host = httpHostOf({ ...config, PUBLIC_URL: config.PUBLIC_URL ?? 'https://public-url.invalid' });
  if (!config.METRICS_TOKEN && !isLoopbackHost(host))
    issue(
      ctx,
      'METRICS_TOKEN',
      `required in production when the HTTP server listens on ${host} (beyond loopback): at least 32 characters, e.g. \`openssl rand -hex 32\`; /metrics is otherwise open to anyone who reaches the port`,
    );
}

/** Production's requirements, as a zod check over the parsed settings. */
const productionSchema = z.custom<Config>().superRefine((config, ctx) => {
  checkRamp(config, ctx);
  checkChannels(config, ctx);
  checkReach(config, ctx);
  for (const [name, min, what] of productionSecrets) {
    const value = config[name];
    if (typeof value === 'string' && value.length < min)
      issue(ctx, name, `too short for production: at least ${min} characters${what}`);
  }
  for (const [names, generated] of [
    [generatedSecrets, true],
    [issuedSecrets, false],
  ] as const)
    for (const name of names) {
      const value = config[name];
      const short = productionSecrets.some(([n, min]) => n === name && String(value).length < min);
      const weak = typeof value === 'string' && !short ? weakSecret(value, generated) : undefined;
      if (weak) issue(ctx, name, weak);
    }
});

/** What stops a start in any mode: settings that parse but cannot work as given. */
function anyModeIssues(config: Config): string[] {
  const issues: string[] = [];
  if (config.WHATSAPP_ENABLED && config.WHATSAPP_TRANSPORT === 'baileys' && !config.REDIS_URL)
    issues.push(
      'REDIS_URL: required because WHATSAPP_ENABLED=1 is set (WhatsApp keeps its pairing and number lease in Redis)',
    );
  return issues;
}

/** Every reason these settings cannot start: any mode's, then production's (one line each). */
export function startIssues(config: Config): string[] {
  const issues = anyModeIssues(config);
  if (config.NODE_ENV !== 'production') return issues;
  try {
    parseEnv(productionSchema, config as unknown as NodeJS.ProcessEnv);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    issues.push(...err.issues);
  }
  return issues;
}
