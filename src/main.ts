/**
 * `npm start`: validates the settings, then runs the app: the terminal chat by default, the
 * Telegram bot when TELEGRAM_BOT_TOKEN is set (plus WhatsApp when WHATSAPP_ENABLED=1). Without
 * RAMP_BASE_URL the ramp is an in-process sandbox; without REDIS_URL state lives in memory.
 */

import { validateCapabilitySettings } from './app/capabilities.js';
import { terminalEnvSchema } from './channels/terminal/index.js';
import { describeSources, loadDotEnv } from './config/dotenv.js';
import { ConfigError, parseEnv } from './config/env.js';
import { assertAllSettings } from './config/refusals.js';
import { loadI18n, pickLocale } from './i18n/index.js';

/**
 * `npm start -- --help` prints the usage (commands, options, where the settings are described)
 * and exits 0 instead of starting the chat; an unknown option is named and exits 2.
 */
function answerOptions(args: readonly string[]): void {
  if (args.length === 0) return;
  const lang = process.env.LC_ALL || process.env.LANG;
  const locale = pickLocale(lang ? lang.split('.')[0]?.replace('_', '-') : undefined);
  const i18n = loadI18n();
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${i18n.t(locale, { id: 'terminal-usage' })}\n`);
    process.exit(0);
  }
  const option = args.find((a) => a.startsWith('-'));
  if (option) {
    process.stderr.write(`${i18n.t(locale, { id: 'terminal-unknown-option', args: { option } })}\n`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  answerOptions(process.argv.slice(2));
  let config: ReturnType<typeof assertAllSettings>;
  let terminal: ReturnType<typeof terminalEnvSchema.parse>;
  try {
    const sources = loadDotEnv();
    // Every refusal at once: the terminal's and the capabilities' settings beside the core ones.
    const more: string[] = [];
    const collect = async (check: () => unknown) => {
      try {
        await check();
      } catch (err) {
        if (err instanceof ConfigError) more.push(...err.issues);
        else throw err;
      }
    };
    await collect(() => {
      terminal = parseEnv(terminalEnvSchema, process.env);
    });
    await collect(() => validateCapabilitySettings(process.env));
    config = assertAllSettings(process.env, more);
    const said = describeSources(sources, process.env);
    // Said when a file took part or in production; a local run from the environment stays quiet.
    if (said && (sources.file || config.NODE_ENV === 'production'))
      process.stderr.write(`rampchat: ${said}\n`);
  } catch (err) {
    if (err instanceof ConfigError || (err instanceof Error && err.message.startsWith('ENV_FILE:'))) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }

  // Loaded after the settings pass, so a bad setting is reported at once.
  const { startApp } = await import('./app/start.js');
  const { startAgainOnDropout } = await import('./app/start-again.js');
  const stopAsked = new AbortController();
  const starting = startAgainOnDropout(
    () =>
      startApp(config, {
        terminal,
        lang: process.env.LC_ALL || process.env.LANG,
        stopAsked: stopAsked.signal,
      }),
    {
      withinMs: config.START_TIMEOUT_MS,
      onRetry: (err) =>
        process.stderr.write(`rampchat: Redis went away while starting (${err.message}); starting again\n`),
    },
  );
  // Kept alive while starting: a start waiting on a Redis that went away has only unref'd timers
  // (reconnection), and Node would otherwise end the process quietly with code 0.
  const keepAlive = setInterval(() => {}, 60_000);
  void starting.then(
    () => clearInterval(keepAlive),
    () => clearInterval(keepAlive),
  );
  let exiting = false;
  /**
   * Graceful stop: the HTTP server closes first (new connections refused, so Telegram sends new
   * updates to another replica; a post on a connection still open is answered 503) and the webhook
   * posts in flight finish with their real answers; then, in reverse start order, the channels stop,
   * tracker workers close (a job in progress finishes or goes back to the queue), then Redis. A stop that hangs is cut
   * short after SHUTDOWN_TIMEOUT_MS so the orchestrator's kill is never needed.
   */
  const shutdown = async (code: number, signal?: string) => {
    if (exiting) return;
    exiting = true;
    if (signal) process.stderr.write(`rampchat: ${signal} received, stopping\n`);
    stopAsked.abort();
    const limit = config.SHUTDOWN_TIMEOUT_MS;
    const watchdog = setTimeout(() => {
      process.stderr.write(`rampchat: could not stop within ${limit} ms; exiting\n`);
      process.exit(1);
    }, limit);
    watchdog.unref();
    // A signal during the start waits for it to finish (or fail), then stops what started.
    const app = await starting.catch(() => undefined);
    await app?.stop();
    process.exit(code);
  };
  // Installed before the start, so a stop asked for at any moment is a graceful one.
  process.once('SIGINT', () => void shutdown(0, 'SIGINT'));
  process.once('SIGTERM', () => void shutdown(0, 'SIGTERM'));
  const app = await starting;

  await app.done;
  await shutdown(0);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`rampchat could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  if (err instanceof Error && err.stack && process.env.LOG_LEVEL === 'debug')
    process.stderr.write(`${err.stack}\n`);
  process.exit(1);
});
