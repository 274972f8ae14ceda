/**
 * Small per-chat state the adapter keeps: the message id behind each `replaceKey` and whether the
 * phone keyboard is showing. In Redis when a client is given (shared by instances, survives a
 * restart), else in memory.
 */
import type { ChatScratch } from '../types.js';

/** The node-redis commands the adapter uses (a `createClient()` client fits). */
export interface TelegramRedis {
  get(key: string): Promise<string | null | unknown>;
  set(key: string, value: string, options?: { expiration?: { type: 'EX'; value: number } }): Promise<unknown>;
  del(key: string): Promise<number | unknown>;
}

export interface ChatState {
  getReplaceMessage(chatId: string, key: string): Promise<number | undefined>;
  setReplaceMessage(chatId: string, key: string, messageId: number): Promise<void>;
  phoneKeyboardShown(chatId: string): Promise<boolean>;
  setPhoneKeyboardShown(chatId: string, shown: boolean): Promise<void>;
  /** The message holding the question the user is answering (the last reply sent with buttons). */
  questionMessage(chatId: string): Promise<number | undefined>;
  setQuestionMessage(chatId: string, messageId: number): Promise<void>;
}

const REPLACE_TTL_SECONDS = 30 * 24 * 3600;
const KEYBOARD_TTL_SECONDS = 7 * 24 * 3600;
const MEMORY_LIMIT = 50_000;

/**
 * State in Redis under `<prefix>tg:`. Best effort: it only shapes how messages look (edit in place,
 * the phone keyboard), so while Redis is down reads answer "unknown" and writes are skipped, and a
 * message such as "try again in a moment" still goes out.
 */
export function redisChatState(redis: TelegramRedis, prefix: string): ChatState {
  const replaceKey = (chatId: string, key: string) => `${prefix}tg:replace:${chatId}:${key}`;
  const keyboardKey = (chatId: string) => `${prefix}tg:phone-kbd:${chatId}`;
  const questionKey = (chatId: string) => `${prefix}tg:question:${chatId}`;
  const get = (key: string) => Promise.resolve(redis.get(key)).catch(() => undefined);
  const quietly = async (write: () => Promise<unknown>) => {
    try {
      await write();
    } catch {
      // Cosmetic state: losing one write only means a new message instead of an edit.
    }
  };
  return {
    async getReplaceMessage(chatId, key) {
      const v = await get(replaceKey(chatId, key));
      const id = typeof v === 'string' ? Number(v) : Number.NaN;
      return Number.isSafeInteger(id) && id > 0 ? id : undefined;
    },
    async setReplaceMessage(chatId, key, messageId) {
      await quietly(() =>
        redis.set(replaceKey(chatId, key), String(messageId), {
          expiration: { type: 'EX', value: REPLACE_TTL_SECONDS },
        }),
      );
    },
    async phoneKeyboardShown(chatId) {
      return (await get(keyboardKey(chatId))) === '1';
    },
    async questionMessage(chatId) {
      const v = await get(questionKey(chatId));
      const id = typeof v === 'string' ? Number(v) : Number.NaN;
      return Number.isSafeInteger(id) && id > 0 ? id : undefined;
    },
    async setQuestionMessage(chatId, messageId) {
      await quietly(() =>
        redis.set(questionKey(chatId), String(messageId), {
          expiration: { type: 'EX', value: KEYBOARD_TTL_SECONDS },
        }),
      );
    },
    async setPhoneKeyboardShown(chatId, shown) {
      await quietly(() =>
        shown
          ? redis.set(keyboardKey(chatId), '1', { expiration: { type: 'EX', value: KEYBOARD_TTL_SECONDS } })
          : redis.del(keyboardKey(chatId)),
      );
    },
  };
}

/** State in this process only (lost on restart; bounded to the most recent chats). */
export function memoryChatState(): ChatState {
  const replace = new Map<string, number>();
  const keyboards = new Set<string>();
  const questions = new Map<string, number>();
  const remember = (k: string, id: number) => {
    replace.delete(k);
    replace.set(k, id);
    if (replace.size > MEMORY_LIMIT) replace.delete(replace.keys().next().value as string);
  };
  return {
    async getReplaceMessage(chatId, key) {
      return replace.get(`${chatId}\n${key}`);
    },
    async setReplaceMessage(chatId, key, messageId) {
      remember(`${chatId}\n${key}`, messageId);
    },
    async phoneKeyboardShown(chatId) {
      return keyboards.has(chatId);
    },
    async questionMessage(chatId) {
      return questions.get(chatId);
    },
    async setQuestionMessage(chatId, messageId) {
      questions.delete(chatId);
      questions.set(chatId, messageId);
      if (questions.size > MEMORY_LIMIT) questions.delete(questions.keys().next().value as string);
    },
    async setPhoneKeyboardShown(chatId, shown) {
      if (shown) {
        keyboards.add(chatId);
        if (keyboards.size > MEMORY_LIMIT) keyboards.delete(keyboards.values().next().value as string);
      } else keyboards.delete(chatId);
    },
  };
}

/** The chat's question message and phone-keyboard mark, read and written as one. */
export interface ChatMarks {
  keyboardShown(): Promise<boolean>;
  setKeyboardShown(shown: boolean): Promise<void>;
  question(): Promise<number | undefined>;
  setQuestion(messageId: number): Promise<void>;
}

/**
 * The chat's marks: in the engine's chat scratch when it is given (saved with the session, no round
 * trip of its own), else in `state`.
 */
export function chatMarks(state: ChatState, chatId: string, scratch?: ChatScratch): ChatMarks {
  if (!scratch)
    return {
      keyboardShown: () => state.phoneKeyboardShown(chatId),
      setKeyboardShown: (shown: boolean) => state.setPhoneKeyboardShown(chatId, shown),
      question: () => state.questionMessage(chatId),
      setQuestion: (messageId: number) => state.setQuestionMessage(chatId, messageId),
    };
  return {
    keyboardShown: async () => scratch.get('kbd') === '1',
    setKeyboardShown: async (shown: boolean) => scratch.set('kbd', shown ? '1' : undefined),
    question: async () => {
      const id = Number(scratch.get('q'));
      return Number.isSafeInteger(id) && id > 0 ? id : undefined;
    },
    setQuestion: async (messageId: number) => scratch.set('q', String(messageId)),
  };
}
