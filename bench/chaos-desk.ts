/**
 * Desk traffic for the chaos run (./chaos.ts): users who open a case with `/support` and write to
 * it line by line, and an agent who answers each line in the case's topic, while replicas are
 * killed and stopped. Counted from outside: a user's line the bot said went to support ("✓ Your
 * message went to our support team") that never reached the support group is a lost desk post; an
 * agent's answer the bot took (its webhook answered 2xx) that never reached the user is a lost
 * message. A line answered otherwise (a Redis emptied meanwhile ended the support chat, and the
 * user was told so) is counted apart.
 */
import type { FakeTelegramBotApi } from '../test/fakes/telegram-bot-api.js';
import { sleep } from './harness.js';

export interface DeskTrafficOptions {
  fake: FakeTelegramBotApi;
  /** Injects an update and redelivers it as Telegram would; resolves with whether it was taken. */
  send(inject: () => number): Promise<boolean>;
  supportChat: number;
  agent: number;
  users: number;
  lines: number;
  firstChat: number;
  random: () => number;
  log(line: string): void;
}

export interface DeskFigures {
  deskUsers: number;
  /** Users' lines the bot said went to support, and of them those that never reached the group. */
  deskLines: number;
  /** Lines taken but answered otherwise (not as sent to support). */
  deskLinesNotRelayed: number;
  lostDeskPosts: string[];
  /** The agent's answers the bot took, and of them those that never reached their user. */
  agentReplies: number;
  lostAgentReplies: string[];
}

export interface DeskTraffic {
  /** Resolves once every user wrote and every answer was sent. */
  done: Promise<void>;
  /** Whether every line taken is in the group and every answer taken reached its user. */
  settled(): boolean;
  figures(): DeskFigures;
}

const lineText = (chat: number, k: number) => `desk line ${chat}.${k}`;
const replyText = (chat: number, k: number) => `agent answer ${chat}.${k}`;

export function startDeskTraffic(o: DeskTrafficOptions): DeskTraffic {
  const { fake } = o;
  const taken: Array<{ chat: number; text: string }> = [];
  let notRelayed = 0;
  const acks = (chat: number) =>
    fake.sentMessages(chat).filter((m) => m.text?.includes('went to our support team')).length;
  const answered: Array<{ chat: number; text: string }> = [];
  const groupText = () =>
    fake
      .sentMessages(o.supportChat)
      .map((m) => m.text ?? '')
      .join('\n');
  const threadOf = (text: string) => {
    for (const t of fake.forumTopics(o.supportChat))
      if (fake.topicMessages(o.supportChat, t.message_thread_id).some((m) => m.text?.includes(text)))
        return t.message_thread_id;
    return undefined;
  };

  const user = async (chat: number) => {
    await sleep(o.random() * 5_000);
    if (!(await o.send(() => fake.sendText(chat, '/support')))) return;
    for (let k = 0; k < o.lines; k++) {
      await sleep(1_500 + o.random() * 2_500);
      const text = lineText(chat, k);
      const before = acks(chat);
      if (!(await o.send(() => fake.sendText(chat, text)))) continue;
      // Said to have gone to support, or answered otherwise.
      const end = Date.now() + 15_000;
      while (acks(chat) <= before && Date.now() < end) await sleep(300);
      if (acks(chat) > before) taken.push({ chat, text });
      else notRelayed += 1;
    }
  };
  const agent = async (chat: number) => {
    for (let k = 0; k < o.lines; k++) {
      // Each answer follows its line, once the agent can see it in the case's topic.
      const end = Date.now() + 120_000;
      let thread = threadOf(lineText(chat, k));
      while (thread === undefined && Date.now() < end) {
        await sleep(1_000);
        thread = threadOf(lineText(chat, k));
      }
      if (thread === undefined) return;
      const text = replyText(chat, k);
      const inject = () => fake.sendText(o.supportChat, text, { userId: o.agent, threadId: thread });
      if (await o.send(inject)) answered.push({ chat, text });
    }
  };
  const chats = Array.from({ length: o.users }, (_, i) => o.firstChat + i);
  const done = Promise.all(chats.flatMap((c) => [user(c), agent(c)])).then(() =>
    o.log(`desk: ${taken.length} lines and ${answered.length} answers taken`),
  );

  const lost = () => {
    const group = groupText();
    return {
      posts: taken.filter((l) => !group.includes(l.text)).map((l) => l.text),
      replies: answered
        .filter((a) => !fake.sentMessages(a.chat).some((m) => m.text?.includes(a.text)))
        .map((a) => a.text),
    };
  };
  return {
    done,
    settled: () => {
      const l = lost();
      return l.posts.length === 0 && l.replies.length === 0;
    },
    figures: () => {
      const l = lost();
      return {
        deskUsers: o.users,
        deskLines: taken.length,
        deskLinesNotRelayed: notRelayed,
        lostDeskPosts: l.posts,
        agentReplies: answered.length,
        lostAgentReplies: l.replies,
      };
    },
  };
}
