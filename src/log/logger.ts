/**
 * The one logger. Secrets are redacted by path; phone numbers are masked wherever a field is
 * named like one, so a stray `phone` in a log call cannot leak.
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import { maskPhone } from '../domain/phone.js';

export type { Logger };

const SECRET_PATHS = [
  'apiKey',
  'apiSecret',
  'secret',
  'token',
  'botToken',
  'password',
  'privateKey',
  'mnemonic',
  'authorization',
  '*.apiKey',
  '*.apiSecret',
  '*.secret',
  '*.token',
  '*.botToken',
  '*.password',
  '*.privateKey',
  '*.mnemonic',
  '*.authorization',
  'headers["x-api-key"]',
  'headers["x-api-secret"]',
  'headers.authorization',
  '*.headers["x-api-key"]',
  '*.headers["x-api-secret"]',
  '*.headers.authorization',
  'config.RAMP_API_KEY',
  'config.RAMP_API_SECRET',
  'config.RAMP_CHECKOUT_SECRET',
  'config.TELEGRAM_BOT_TOKEN',
  'config.TELEGRAM_WEBHOOK_SECRET',
  'config.WHATSAPP_CLOUD_TOKEN',
  'config.WHATSAPP_APP_SECRET',
  'config.WHATSAPP_VERIFY_TOKEN',
  'config.METRICS_TOKEN',
  'config.ALGOD_TOKEN',
  'config.INDEXER_TOKEN',
  'accessToken',
  'appSecret',
  'verifyToken',
  '*.accessToken',
  '*.appSecret',
  '*.verifyToken',
];

const PHONE_PATHS = [
  'phone',
  'partyA',
  'partyB',
  'phoneNumber',
  '*.phone',
  '*.partyA',
  '*.partyB',
  '*.phoneNumber',
];

const PHONE_KEYS = new Set(PHONE_PATHS.map((p) => p.replace('*.', '')));

function censor(value: unknown, path: string[]): unknown {
  const key = path[path.length - 1] ?? '';
  if (PHONE_KEYS.has(key)) {
    return typeof value === 'string' || typeof value === 'number' ? maskPhone(String(value)) : '[redacted]';
  }
  return '[redacted]';
}

export interface LoggerOptions {
  level?: string;
  destination?: DestinationStream;
}

/** Creates the application logger (JSON to stdout unless a destination is given). */
export function createLogger(opts: LoggerOptions = {}): Logger {
  return pino(
    {
      level: opts.level ?? process.env.LOG_LEVEL ?? 'info',
      redact: { paths: [...SECRET_PATHS, ...PHONE_PATHS], censor },
      base: undefined,
    },
    opts.destination,
  );
}
