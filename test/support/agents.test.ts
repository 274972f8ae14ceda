/** Who may act in the support chat, asked of the fake Bot API through real grammY. */
import { Bot } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import { createAgentGate } from '../../src/support/telegram/agents.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';

const TOKEN = '42:AgentGateTestToken_abcdefghijklmnopqrstuv';
const CHAT = -100777;
let fake: FakeTelegramBotApi;
let bot: Bot;

beforeAll(async () => {
  fake = await FakeTelegramBotApi.start({ token: TOKEN });
  fake.setChatMember(CHAT, 1, 'member');
  fake.setChatMember(CHAT, 2, 'left');
  fake.setChatMember(CHAT, 3, 'administrator');
  fake.setChatMember(CHAT, 4, 'member');
  bot = new Bot(TOKEN, { client: { apiRoot: fake.url } });
});

afterAll(async () => {
  await fake?.close();
});

const gate = (allowAdmins: boolean, now = () => 0) =>
  createAgentGate({
    api: bot.api,
    chatId: String(CHAT),
    agentIds: ['1', '2'],
    allowAdmins,
    logger: createLogger({ level: 'silent' }),
    cacheMs: 1000,
    now,
  });

describe('the agent gate', () => {
  it('lets in listed members only, unless admins are allowed', async () => {
    const listedOnly = gate(false);
    expect(await listedOnly.isAgent(1)).toBe(true);
    expect(await listedOnly.isAgent(2)).toBe(false); // listed, but no longer in the chat
    expect(await listedOnly.isAgent(3)).toBe(false); // an admin, not listed
    expect(await listedOnly.isAgent(4)).toBe(false);
    const withAdmins = gate(true);
    expect(await withAdmins.isAgent(3)).toBe(true);
    expect(await withAdmins.isAgent(4)).toBe(false);
  });

  it('asks Telegram again only after the cache time', async () => {
    let clock = 0;
    const g = gate(true, () => clock);
    const calls = () => fake.callsTo('getChatAdministrators', CHAT).length;
    const before = calls();
    await g.isAgent(3);
    await g.isAgent(4);
    expect(calls()).toBe(before + 1);
    fake.setChatMember(CHAT, 3, 'left');
    expect(await g.isAgent(3)).toBe(true);
    clock = 2000;
    expect(await g.isAgent(3)).toBe(false);
    expect(calls()).toBe(before + 2);
  });

  it('refuses when Telegram cannot be asked', async () => {
    fake.failNext('getChatMember', { error_code: 400, description: 'Bad Request: chat not found' });
    expect(await gate(false).isAgent(1)).toBe(false);
  });
});
