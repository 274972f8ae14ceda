/**
 * Who may act in the support chat: a member of the chat listed in SUPPORT_AGENT_IDS, or (with
 * SUPPORT_ALLOW_ADMINS=1) any of its administrators. Telegram is asked at most once per
 * `cacheMs` per answer; a failed lookup refuses (fail closed).
 */
import type { Api } from 'grammy';
import type { Logger } from '../../log/logger.js';

export interface AgentGate {
  isAgent(userId: number): Promise<boolean>;
}

const MEMBER = new Set(['creator', 'administrator', 'member']);

export function createAgentGate(opts: {
  api: Api;
  chatId: string;
  agentIds: readonly string[];
  allowAdmins: boolean;
  logger: Logger;
  cacheMs?: number;
  now?: () => number;
}): AgentGate {
  const { api, chatId } = opts;
  const cacheMs = opts.cacheMs ?? 60_000;
  const now = opts.now ?? Date.now;
  const listed = new Set(opts.agentIds.map((id) => id.trim()).filter(Boolean));
  const members = new Map<number, { ok: boolean; until: number }>();
  let admins: { ids: Set<number>; until: number } | undefined;
  const log = opts.logger.child({ component: 'support-agents' });

  async function isMember(userId: number): Promise<boolean> {
    const cached = members.get(userId);
    if (cached && cached.until > now()) return cached.ok;
    let ok = false;
    try {
      const m = await api.getChatMember(chatId, userId);
      ok = MEMBER.has(m.status) || (m.status === 'restricted' && m.is_member);
    } catch (err) {
      log.warn({ userId, err: String(err) }, 'could not check a support chat member; refusing');
      return false;
    }
    members.set(userId, { ok, until: now() + cacheMs });
    return ok;
  }

  async function isAdmin(userId: number): Promise<boolean> {
    if (!admins || admins.until <= now()) {
      try {
        const list = await api.getChatAdministrators(chatId);
        admins = { ids: new Set(list.map((a) => a.user.id)), until: now() + cacheMs };
      } catch (err) {
        log.warn({ err: String(err) }, 'could not list the support chat administrators; refusing');
        return false;
      }
    }
    return admins.ids.has(userId);
  }

  return {
    async isAgent(userId) {
      if (listed.has(String(userId)) && (await isMember(userId))) return true;
      return opts.allowAdmins ? isAdmin(userId) : false;
    },
  };
}
