/** The fake Bot API itself, driven by grammY's real API client: what other tests rely on. */
import { Api, GrammyError, InputFile, InputMediaBuilder } from 'grammy';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeTelegramBotApi, parseTelegramHtml } from '../../fakes/telegram-bot-api.js';

const TOKEN = '111:AAFakeBotApiSelfTestToken_xxxxxxxxxx';
let fake: FakeTelegramBotApi;
let api: Api;

beforeEach(async () => {
  fake = await FakeTelegramBotApi.start({ token: TOKEN });
  api = new Api(TOKEN, { apiRoot: fake.url });
});
afterEach(async () => {
  await fake.close();
});

describe('fake Telegram Bot API', () => {
  it('refuses another token with 401', async () => {
    const other = new Api('222:AAWrongTokenWrongTokenWrongToken__', { apiRoot: fake.url });
    await expect(other.getMe()).rejects.toMatchObject({ error_code: 401 });
    expect((await api.getMe()).username).toBe('rampchat_test_bot');
  });

  it('holds getUpdates until an update arrives and confirms updates below the offset', async () => {
    const held = api.getUpdates({ timeout: 5 });
    await fake.waitFor(() => fake.callsTo('getUpdates').length === 1, 2000, 'poll arrived');
    const first = fake.sendText(5, 'hi');
    const got = await held;
    expect(got.map((u) => u.update_id)).toEqual([first]);
    // Without a higher offset the update is delivered again.
    expect((await api.getUpdates({ timeout: 0 })).map((u) => u.update_id)).toEqual([first]);
    const second = fake.sendText(5, 'again');
    expect((await api.getUpdates({ offset: first + 1, timeout: 0 })).map((u) => u.update_id)).toEqual([
      second,
    ]);
    expect(await api.getUpdates({ offset: second + 1, timeout: 0 })).toEqual([]);
  });

  it('ends an empty long poll after its timeout and a held poll when another starts (409)', async () => {
    expect(await api.getUpdates({ timeout: 1 })).toEqual([]);
    const held = api.getUpdates({ timeout: 5 });
    await fake.waitFor(() => fake.callsTo('getUpdates').length === 2, 2000, 'second poll');
    const rival = api.getUpdates({ timeout: 0 });
    await expect(held).rejects.toMatchObject({ error_code: 409 });
    expect(await rival).toEqual([]);
  });

  it('gives message ids per chat, applies edits and answers like Telegram on bad edits', async () => {
    const a = await api.sendMessage(1, 'one');
    const b = await api.sendMessage(1, '<b>two</b>', { parse_mode: 'HTML' });
    expect([a.message_id, b.message_id]).toEqual([1, 2]);
    expect(b.entities).toEqual([{ type: 'bold', offset: 0, length: 3 }]);
    await api.editMessageText(1, 2, 'three', {
      reply_markup: { inline_keyboard: [[{ text: 'x', callback_data: 'x' }]] },
    });
    expect(fake.sentMessages(1).map((m) => [m.text, m.edits])).toEqual([
      ['one', 0],
      ['three', 1],
    ]);
    await expect(
      api.editMessageText(1, 2, 'three', {
        reply_markup: { inline_keyboard: [[{ text: 'x', callback_data: 'x' }]] },
      }),
    ).rejects.toThrow(/message is not modified/);
    await expect(api.editMessageText(1, 99, 'x')).rejects.toThrow(/message to edit not found/);
    await expect(api.sendMessage(1, 'a < b', { parse_mode: 'HTML' })).rejects.toThrow(/can't parse entities/);
    await expect(
      api.sendMessage(1, 'x', {
        reply_markup: { inline_keyboard: [[{ text: 'x', callback_data: 'y'.repeat(65) }]] },
      }),
    ).rejects.toThrow(/BUTTON_DATA_INVALID/);
  });

  it('fails a method on demand, once', async () => {
    fake.failNext('sendMessage', {
      error_code: 429,
      description: 'Too Many Requests: retry after 3',
      retry_after: 3,
    });
    const err = await api.sendMessage(1, 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GrammyError);
    expect((err as GrammyError).parameters.retry_after).toBe(3);
    await expect(api.sendMessage(1, 'x')).resolves.toMatchObject({ message_id: 1 });
  });

  it('supports forum topics, members and admins for the support desk', async () => {
    fake.setChat({ id: -100, type: 'supergroup', title: 'Support', is_forum: true });
    fake.setChatMember(-100, 10, 'administrator');
    fake.setChatMember(-100, 11, 'member');
    const topic = await api.createForumTopic(-100, 'Ticket T-1');
    const inTopic = await api.sendMessage(-100, 'hello agents', {
      message_thread_id: topic.message_thread_id,
    });
    expect(inTopic.message_thread_id).toBe(topic.message_thread_id);
    expect(fake.forumTopics(-100)).toEqual([
      { message_thread_id: topic.message_thread_id, name: 'Ticket T-1' },
    ]);
    expect((await api.getChatMember(-100, 11)).status).toBe('member');
    expect((await api.getChatMember(-100, 12)).status).toBe('left');
    expect((await api.getChatAdministrators(-100)).map((m) => m.user.id)).toEqual([10]);
    await expect(api.sendChatAction(-100, 'typing')).resolves.toBe(true);
    await expect(api.createForumTopic(5, 'x')).rejects.toThrow(/not a forum/);
  });

  it('takes documents uploaded with a name and a caption, and refuses what Telegram refuses', async () => {
    const sent = await api.sendDocument(7, new InputFile(Buffer.from('a,b\r\n'), 'rows.csv'), {
      caption: '<b>Rows</b>',
      parse_mode: 'HTML',
    });
    expect(sent.document).toMatchObject({ file_name: 'rows.csv', file_size: 5 });
    expect(fake.lastMessage(7)).toMatchObject({ text: 'Rows', document: { filename: 'rows.csv' } });
    // A file id or URL is not an upload; an empty file and one over 50 MB are refused.
    await expect(api.sendDocument(7, 'https://example.com/a.pdf')).rejects.toBeInstanceOf(GrammyError);
    await expect(api.sendDocument(7, new InputFile(Buffer.alloc(0), 'empty.csv'))).rejects.toMatchObject({
      error_code: 400,
    });
    const big = new InputFile(Buffer.alloc(50 * 1024 * 1024 + 1), 'big.pdf');
    await expect(api.sendDocument(7, big)).rejects.toMatchObject({
      description: 'Bad Request: file is too big',
    });
  });

  it("replaces a picture's photo, caption and buttons with editMessageMedia, and refuses what Telegram refuses", async () => {
    const png = (n: number) =>
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10]), Buffer.alloc(24, n)]);
    const pic = await api.sendPhoto(7, new InputFile(png(1), 'a.png'), { caption: 'Day' });
    const keyboard = { inline_keyboard: [[{ text: 'Week', callback_data: 'w' }]] };
    const media = (n: number, caption: string) =>
      InputMediaBuilder.photo(new InputFile(png(n), 'b.png'), {
        caption: `<b>${caption}</b>`,
        parse_mode: 'HTML',
      });
    await api.editMessageMedia(7, pic.message_id, media(2, 'Week'), { reply_markup: keyboard });
    const edited = fake.lastMessage(7)!;
    expect(edited).toMatchObject({
      message_id: pic.message_id,
      text: 'Week',
      edits: 1,
      reply_markup: keyboard,
    });
    expect(Buffer.from(edited.photo!.bytes).equals(png(2))).toBe(true);
    // The same again is not modified; a text message has no media; a gone one is not found.
    await expect(
      api.editMessageMedia(7, pic.message_id, media(2, 'Week'), { reply_markup: keyboard }),
    ).rejects.toMatchObject({ description: expect.stringMatching(/not modified/) });
    const words = await api.sendMessage(7, 'words');
    await expect(api.editMessageMedia(7, words.message_id, media(3, 'x'))).rejects.toMatchObject({
      description: 'Bad Request: there is no media in the message to edit',
    });
    await expect(api.editMessageMedia(7, 999, media(3, 'x'))).rejects.toMatchObject({
      description: 'Bad Request: message to edit not found',
    });
  });

  it('parses HTML like Telegram: nested tags, links, entities, and refuses unknown or unbalanced tags', () => {
    expect(parseTelegramHtml('<b>a <i>b</i></b> &lt;c&gt; <a href="https://x.org">d</a>')).toEqual({
      text: 'a b <c> d',
      entities: [
        { type: 'italic', offset: 2, length: 1 },
        { type: 'bold', offset: 0, length: 3 },
        { type: 'text_link', offset: 8, length: 1, url: 'https://x.org' },
      ],
    });
    expect(() => parseTelegramHtml('<div>x</div>')).toThrow(/Unsupported start tag "div"/);
    expect(() => parseTelegramHtml('<b>x')).toThrow(/end tag/);
    expect(() => parseTelegramHtml('fish & chips')).toThrow(/entity/);
  });
});
