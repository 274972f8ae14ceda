/**
 * The settings of an app run by a test on the fake Bot API (long polling, no HTTP port of its own, no
 * logs) on the given Redis, with a journal folder of its own; `more` adds or overrides settings.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, loadConfig } from '../../src/config/env.js';

export function telegramAppConfig(
  bot: { token: string; apiRoot: string },
  redisUrl: string,
  more: Record<string, string> = {},
): Config {
  return loadConfig({
    HTTP_PORT: '0',
    LOG_LEVEL: 'silent',
    TELEGRAM_BOT_TOKEN: bot.token,
    TELEGRAM_API_ROOT: bot.apiRoot,
    REDIS_URL: redisUrl,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'rampchat-app-')),
    ...more,
  });
}
