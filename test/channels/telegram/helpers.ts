/** Shared set-up for the Telegram adapter tests: locales with test texts, a log sink, a scripted conversation. */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RedisClientType } from 'redis';
import { createEngine } from '../../../src/app/flows.js';
import type { Conversation } from '../../../src/channels/types.js';
import type { Locale, UserRef } from '../../../src/chat/types.js';
import type { Input } from '../../../src/flows/types.js';
import { type I18n, loadI18n } from '../../../src/i18n/index.js';
import { createLogger, type Logger } from '../../../src/log/logger.js';
import type { RampClient } from '../../../src/ramp/types.js';
import { createRedisStore } from '../../../src/store/index.js';

const TEST_FTL: Record<Locale, string> = {
  en: `test-echo = You said: { $text }
test-bold = <b>{ $name }</b> & co: { $amount }
test-choose = Pick one
test-yes = Yes
test-no = No
test-site = Website
test-status = Order { $id } is { $status }
test-phone = Send your M-Pesa number
test-done = Done
`,
  sw: `test-echo = Umesema: { $text }
test-bold = <b>{ $name }</b> & wenzake: { $amount }
test-choose = Chagua moja
test-yes = Ndiyo
test-no = Hapana
test-site = Tovuti
test-status = Oda { $id } iko { $status }
test-phone = Tuma namba yako ya M-Pesa
test-done = Imekamilika
`,
};

/** The project's i18n loader over a folder with the real telegram.ftl files plus a few test texts. */
export function testI18n(): I18n {
  const dir = mkdtempSync(join(tmpdir(), 'tg-locales-'));
  for (const locale of ['en', 'sw'] as const) {
    mkdirSync(join(dir, locale));
    copyFileSync(
      new URL(`../../../locales/${locale}/telegram.ftl`, import.meta.url),
      join(dir, locale, 'telegram.ftl'),
    );
    writeFileSync(join(dir, locale, 'test.ftl'), TEST_FTL[locale]);
  }
  return loadI18n(dir);
}

/** A logger whose JSON lines are kept for assertions. */
export function captureLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', destination: { write: (line: string) => lines.push(line) } });
  return { logger, lines };
}

export interface HandledInput {
  user: UserRef;
  input: Input;
  updateId?: string;
  locale?: Locale;
}

/** A stand-in for the engine: records inputs and runs a per-test reply script. */
export class ScriptedConversation implements Conversation {
  readonly inputs: HandledInput[] = [];
  script: (h: HandledInput) => Promise<void> = async () => {};

  async handle(
    user: UserRef,
    input: Input,
    opts?: { updateId?: string; hints?: { phone?: string; locale?: Locale } },
  ): Promise<void> {
    const h: HandledInput = { user, input, updateId: opts?.updateId, locale: opts?.hints?.locale };
    this.inputs.push(h);
    await this.script(h);
  }
}

/** The app's engine and flows on a Redis store under `prefix`, with no ramp (a step calling it fails). */
export async function redisEngine(client: RedisClientType, prefix: string, logger: Logger) {
  const store = await createRedisStore({ client, prefix, flowTtlSeconds: 600 });
  return createEngine({
    store,
    ramp: {} as RampClient,
    logger,
    config: { rateTolerancePct: 1, project: 'test' },
  });
}
