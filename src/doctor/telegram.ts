/**
 * Telegram: the token (getMe), the webhook as Telegram sees it (getWebhookInfo: the URL, updates
 * waiting, the last delivery error), and the support chat (a forum where the bot is an admin).
 */
import type { Config } from '../config/env.js';
import { fetchJson, type Json, shownUrl } from './http.js';
import { type CheckResult, type DoctorContext, fail, ok, reason, skipped } from './types.js';

const DEFAULT_API_ROOT = 'https://api.telegram.org';

export async function checkTelegram(config: Config, ctx: DoctorContext): Promise<CheckResult[]> {
  const token = config.TELEGRAM_BOT_TOKEN;
  if (!token) return [skipped('telegram', 'TELEGRAM_BOT_TOKEN is not set')];
  const root = (config.TELEGRAM_API_ROOT ?? DEFAULT_API_ROOT).replace(/\/$/, '');
  const call = async (method: string, params: Record<string, unknown> = {}) => {
    const { status, body } = await fetchJson(`${root}/bot${token}/${method}`, {
      timeoutMs: ctx.timeoutMs,
      body: params,
    });
    if (body?.ok === true) return body.result;
    const description = String(body?.description ?? `HTTP ${status}`);
    throw Object.assign(new Error(description), { errorCode: Number(body?.error_code ?? status) });
  };

  let me: { id: number; username?: string };
  try {
    me = await call('getMe');
  } catch (err) {
    const code = (err as { errorCode?: number }).errorCode;
    const detail =
      code === 401 || code === 404
        ? `Telegram refused the token (${reason(err)}): check TELEGRAM_BOT_TOKEN with @BotFather`
        : `${shownUrl(root)}: ${reason(err)}`;
    return [fail('telegram getMe', detail)];
  }
  const rows = [ok('telegram getMe', `@${me.username ?? '?'} (id ${me.id})`)];
  rows.push(await webhookRow(config, () => call('getWebhookInfo')));
  rows.push(...(await supportRows(config, me.id, call)));
  return rows;
}

async function webhookRow(config: Config, info: () => Promise<WebhookInfo>): Promise<CheckResult> {
  const part = 'telegram webhook';
  let w: WebhookInfo;
  try {
    w = await info();
  } catch (err) {
    return fail(part, `getWebhookInfo: ${reason(err)}`);
  }
  const pending = `${w.pending_update_count ?? 0} update(s) waiting`;
  const lastError = w.last_error_message
    ? `; last delivery error ${ago(w.last_error_date)}: ${w.last_error_message}`
    : '';
  const want = config.TELEGRAM_WEBHOOK_URL;
  if (want) {
    if (!w.url)
      return fail(part, `no webhook registered (want ${want}; the app registers it at start); ${pending}`);
    if (w.url !== want)
      return fail(
        part,
        `registered at ${w.url}, not TELEGRAM_WEBHOOK_URL ${want} (another deployment?); ${pending}`,
      );
    // Telegram keeps the last error after deliveries recover: only a recent one means they fail now.
    const recent = w.last_error_date !== undefined && Date.now() / 1000 - w.last_error_date < 600;
    if (w.last_error_message && recent) return fail(part, `${w.url}: ${pending}${lastError}`);
    return ok(part, `${w.url}: ${pending}${lastError}`);
  }
  if (w.url)
    return fail(
      part,
      `a webhook is registered at ${w.url} but TELEGRAM_WEBHOOK_URL is unset (long polling): another deployment may use this token`,
    );
  return ok(part, `long polling (no webhook); ${pending}`);
}

interface WebhookInfo {
  url: string;
  pending_update_count?: number;
  last_error_date?: number;
  last_error_message?: string;
}

function ago(unixSeconds: number | undefined): string {
  if (!unixSeconds) return '';
  const minutes = Math.round((Date.now() / 1000 - unixSeconds) / 60);
  return `${minutes} min ago`;
}

async function supportRows(
  config: Config,
  botId: number,
  call: (method: string, params?: Record<string, unknown>) => Promise<Json>,
): Promise<CheckResult[]> {
  if (!config.SUPPORT_CHAT_ID.length)
    return [skipped('support chat', 'SUPPORT_CHAT_ID is not set: cases are only stored and logged')];
  const rows = await Promise.all(config.SUPPORT_CHAT_ID.map((chatId) => groupRows(chatId, botId, call)));
  return rows.flat();
}

/** One support group: a forum where the bot is an admin that manages topics. */
async function groupRows(
  chatId: string,
  botId: number,
  call: (method: string, params?: Record<string, unknown>) => Promise<Json>,
): Promise<CheckResult[]> {
  const rows: CheckResult[] = [];
  try {
    const chat = await call('getChat', { chat_id: chatId });
    if (chat.type !== 'supergroup' || !chat.is_forum)
      rows.push(
        fail(
          'support chat forum',
          `${chatId} is a ${chat.type}${chat.type === 'supergroup' ? ' without topics' : ''}: support needs a supergroup with Topics turned on`,
        ),
      );
    else rows.push(ok('support chat forum', `"${chat.title ?? chatId}" has topics`));
  } catch (err) {
    return [fail('support chat forum', `getChat ${chatId}: ${reason(err)} (is the bot in the group?)`)];
  }
  try {
    const member = await call('getChatMember', { chat_id: chatId, user_id: botId });
    if (member.status !== 'administrator' && member.status !== 'creator')
      rows.push(
        fail(
          'support chat admin',
          `the bot is "${member.status}" there: make it an admin that can manage topics`,
        ),
      );
    else if (member.can_manage_topics === false)
      rows.push(
        fail('support chat admin', 'the bot is an admin but may not manage topics: allow "Manage topics"'),
      );
    else rows.push(ok('support chat admin', `the bot is ${member.status}`));
  } catch (err) {
    rows.push(fail('support chat admin', `getChatMember: ${reason(err)}`));
  }
  return rows;
}
