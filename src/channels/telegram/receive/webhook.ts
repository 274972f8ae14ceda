/**
 * grammY's node:http webhook adapter with the body checked at the boundary: at most 1 MiB of JSON
 * that is an object with an integer `update_id`. Anything else rejects with MalformedUpdateError,
 * which the handler answers with 400 (a 500 would make Telegram retry it forever).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Update } from 'grammy/types';
import * as z from 'zod';

const MAX_UPDATE_BYTES = 1024 * 1024;
const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/** The body of a webhook post is not a Telegram update. */
export class MalformedUpdateError extends Error {
  override name = 'MalformedUpdateError';
}

const userSchema = z.looseObject({ id: z.number().int(), is_bot: z.boolean().optional() });
const chatSchema = z.looseObject({ id: z.number().int(), type: z.string() });
/** The parts of a message the bot reads (the private chat and the support chat). */
const messageSchema = z.looseObject({
  message_id: z.number().int(),
  date: z.number().int(),
  chat: chatSchema,
  from: userSchema.optional(),
  message_thread_id: z.number().int().optional(),
  text: z.string().optional(),
  caption: z.string().optional(),
  entities: z
    .array(z.looseObject({ type: z.string(), offset: z.number().int(), length: z.number().int() }))
    .optional(),
  contact: z.looseObject({ phone_number: z.string(), user_id: z.number().int().optional() }).optional(),
});
/**
 * An update as far as the bot reads it: an integer `update_id`, and a well-formed message or
 * callback query when there is one. A forged or broken body is refused here with 400, never half
 * handled by the middleware.
 */
const updateSchema = z.looseObject({
  update_id: z.number().int().nonnegative(),
  message: messageSchema.optional(),
  callback_query: z
    .looseObject({
      id: z.string(),
      from: userSchema,
      data: z.string().optional(),
      message: z.looseObject({ message_id: z.number().int(), chat: chatSchema }).optional(),
    })
    .optional(),
});

function readUpdate(req: IncomingMessage): Promise<Update> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_UPDATE_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.once('error', reject);
    req.once('end', () => {
      if (tooLarge) return reject(new MalformedUpdateError(`update body over ${MAX_UPDATE_BYTES} bytes`));
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return reject(new MalformedUpdateError('update body is not JSON'));
      }
      const parsed = updateSchema.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.join('.') || 'update';
        return reject(new MalformedUpdateError(`malformed update: ${where}: ${issue?.message ?? 'invalid'}`));
      }
      resolve(parsed.data as unknown as Update);
    });
  });
}

/** The adapter for `webhookCallback(bot, checkedHttpAdapter, …)`. */
export const checkedHttpAdapter = (req: IncomingMessage, res: ServerResponse) => {
  const header = req.headers[SECRET_HEADER];
  return {
    // A getter: grammY reads the body only after the secret header matched.
    get update() {
      return readUpdate(req);
    },
    header: Array.isArray(header) ? header[0] : header,
    // Not after a 503 for a post that outlasted the timeout.
    end: () => res.writableEnded || res.end(),
    respond: (json: string) => res.writeHead(200, { 'content-type': 'application/json' }).end(json),
    unauthorized: () => res.writeHead(401).end('"unauthorized"'),
  };
};
