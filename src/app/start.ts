/**
 * Composition of the whole app: settings in, running parts out. `src/main.ts` calls `startApp`
 * with the process's streams; tests call it in-process with their own streams. The steps, in order:
 * the core parts (./core.ts), the channels (./channels.ts), support and selling (./extensions.ts),
 * then the background work starts and the follow-ups run (./follow-ups.ts).
 */
import pino, { type DestinationStream } from 'pino';
import type { TerminalChannel } from '../channels/terminal/index.js';
import type { Config } from '../config/env.js';
import { createLogger } from '../log/logger.js';
import type { RecoveryReport } from '../recovery/index.js';
import { type ChannelIo, wireChannels } from './channels.js';
import { startCore } from './core.js';
import { type AppParts, wireExtensions } from './extensions.js';
import { startClaimReconciler, startRecovery } from './follow-ups.js';
import type { Stops } from './stops.js';

export interface AppIo extends ChannelIo {
  /** Where JSON logs go (default stderr in terminal mode, stdout otherwise). */
  logDestination?: DestinationStream;
  /** Prefix of every Redis key of the store, tracker and Telegram state (default `rampchat:`). */
  redisPrefix?: string;
  /**
   * Aborted when a stop is asked for while the start runs: the start still finishes what it began
   * (so `stop()` stops it all), but no channel starts taking messages.
   */
  stopAsked?: AbortSignal;
}

export interface App extends AppParts {
  /** Resolves when the terminal input has ended and all its work is done; never in bot mode. */
  done: Promise<void>;
  /** The recovery pass run at start when Redis came back empty (undefined when none ran). */
  recovery: Promise<RecoveryReport | undefined>;
  /**
   * Stops everything started here: first the HTTP server takes no more requests and those in flight
   * (webhook posts) finish with their real answers, then the rest stops in reverse order. Safe to
   * call twice.
   */
  stop(): Promise<void>;
}

/** Starts the ramp (sandbox or remote), store, engine, tracker and channels the settings ask for. */
export async function startApp(config: Config, io: AppIo = {}): Promise<App> {
  const terminalMode = !config.TELEGRAM_BOT_TOKEN;
  const logger = createLogger({
    level: logLevel(config, terminalMode),
    destination: logDestination(config, io, terminalMode),
  });
  const stops: Stops = [];
  const stopAll = async () => {
    while (stops.length) {
      const stop = stops.pop();
      // A part slow to stop is named (by its code), so a stop cut short says what it waited on.
      const slow = setTimeout(
        () => logger.warn({ part: String(stop).replace(/\s+/g, ' ').slice(0, 80) }, 'a part is slow to stop'),
        1_000,
      );
      slow.unref();
      try {
        await stop?.();
      } catch (err) {
        logger.error({ err: err instanceof Error ? err.message : String(err) }, 'stopping a part failed');
      } finally {
        clearTimeout(slow);
      }
    }
  };

  try {
    let terminal: TerminalChannel | undefined;
    const prefix = io.redisPrefix ?? 'rampchat:';
    const { parts, journalPath } = await startCore(config, logger, stops, {
      prefix,
      terminal: () => terminal,
    });
    await wireChannels(config, parts, io, stops);
    terminal = parts.terminal;
    // Telegram's start calls (getMe, the command menus, the webhook) are answered while the
    // capabilities are wired; no update is taken before every middleware is in place.
    const preparing = parts.telegram?.prepare();
    preparing?.catch(() => {});
    stops.push(...(await wireExtensions(parts)));

    // Started last, once every effect handler and middleware is in place.
    await parts.tracker.start();
    await preparing;
    if (io.stopAsked?.aborted) logger.info('a stop was asked for while starting: no channel takes messages');
    else {
      await parts.whatsapp?.start();
      await parts.whatsappCloud?.start();
      await parts.telegram?.start();
    }
    startClaimReconciler(parts, stops);
    const recovery = startRecovery(parts, journalPath, stops);
    // Every route, effect handler and channel exists: requests held until now are served.
    parts.http.markReady();

    let done: Promise<void> = new Promise<void>(() => {});
    if (parts.terminal) {
      printBanner(parts.terminal, parts);
      done = parts.terminal.run(parts.engine);
    }
    let stopped: Promise<void> | undefined;
    return {
      ...parts,
      recovery,
      done,
      stop: () => {
        stopped ??= (async () => {
          // No new request is taken; half the stop's time at most for those in flight.
          const drained = parts.http.drain(config.SHUTDOWN_TIMEOUT_MS / 2);
          // Meanwhile what waits for its turn in the bot's outbox is left to the other replicas, so
          // no request in flight waits on it (a reply left there counts as taken).
          await parts.telegram?.pacing.outbox?.handOver(Math.min(1_000, config.SHUTDOWN_TIMEOUT_MS / 5));
          await drained;
          await stopAll();
        })();
        return stopped;
      },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/**
 * In the terminal chat, logs must not print into the conversation: what the user should know is
 * said as chat lines (the banner says state is in memory; a failed effect is answered in the chat),
 * so stderr carries only errors, unless LOG_FILE takes the logs into a file.
 */
function logLevel(config: Config, terminalMode: boolean): string {
  if (config.LOG_LEVEL) return config.LOG_LEVEL;
  return terminalMode && !config.LOG_FILE ? 'error' : 'info';
}

function logDestination(config: Config, io: AppIo, terminalMode: boolean): DestinationStream | undefined {
  if (io.logDestination) return io.logDestination;
  if (config.LOG_FILE) return pino.destination({ dest: config.LOG_FILE, append: true, mkdir: true });
  return terminalMode ? pino.destination(2) : undefined;
}

function printBanner(terminal: TerminalChannel, parts: AppParts): void {
  const { config } = parts;
  terminal.say('terminal-welcome');
  if (parts.sandbox) terminal.say('terminal-ramp-sandbox', { url: parts.sandbox.url });
  else
    terminal.say('terminal-ramp-remote', {
      url: config.RAMP_BASE_URL ?? '',
      generation: config.RAMP_API_GENERATION,
    });
  terminal.say(parts.store.kind === 'redis' ? 'terminal-state-redis' : 'terminal-state-memory');
  terminal.say('terminal-telegram-hint');
  terminal.say(parts.whatsapp || parts.whatsappCloud ? 'terminal-whatsapp-on' : 'terminal-whatsapp-hint');
}
