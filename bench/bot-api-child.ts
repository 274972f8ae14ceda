/**
 * The fake Bot API (test/fakes/telegram-bot-api.ts) in its own process, so the conversation
 * benchmark's CPU figures are the bot's alone. Prints `{ url, botInfo }` on the first stdout line.
 * IPC: `{ queries: n }` registers the next n callback query ids (1, 2, … in order; the fake answers
 * `answerCallbackQuery` only for queries it issued) and replies `{ registeredUpTo }`;
 * `{ cpu: true }` replies `{ cpuUs }`, this process's CPU time so far.
 */
import { FakeTelegramBotApi } from '../test/fakes/telegram-bot-api.js';

const TOKEN = '1000:bench';
const fake = await FakeTelegramBotApi.start();
let registeredUpTo = 0;

/** Drops the queued updates `pressButton` leaves behind (nobody polls them), as a restarted bot would. */
const dropPending = () =>
  fetch(`${fake.url}/bot${TOKEN}/deleteWebhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ drop_pending_updates: true }),
  }).then((r) => r.arrayBuffer());

process.on('message', async (msg: { queries?: number; cpu?: boolean }) => {
  if (msg.cpu) {
    const c = process.cpuUsage();
    process.send?.({ cpuUs: c.user + c.system });
    return;
  }
  for (let i = 0; i < (msg.queries ?? 0); i++) {
    fake.pressButton(1, 0, 'bench');
    if (++registeredUpTo % 1000 === 0) await dropPending();
  }
  await dropPending();
  // Forget the recorded calls so far (the fake keeps every call; a long run would only grow).
  fake.calls.length = 0;
  process.send?.({ registeredUpTo });
});
process.on('SIGTERM', () => {
  void fake.close().finally(() => process.exit(0));
});
process.stdout.write(`${JSON.stringify({ url: fake.url, token: TOKEN, botInfo: fake.botInfo })}\n`);
