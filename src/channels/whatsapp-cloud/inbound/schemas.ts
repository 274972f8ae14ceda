/**
 * The webhook bodies Meta posts for a WhatsApp Business Account, as far as rampchat reads them:
 * messages from users and statuses of ours. Fields we do not read pass through untouched; a body
 * without what we read (or with it malformed) is refused whole.
 */
import * as z from 'zod';

const digits = z.string().regex(/^\d{5,20}$/, 'digits only');
const epochSeconds = z.string().regex(/^\d{1,12}$/, 'epoch seconds');

const replySchema = z.looseObject({ id: z.string().min(1).max(256), title: z.string().max(100) });

/** One message a user sent (text, a tap on our buttons or list, media, …). */
export const inboundMessageSchema = z.looseObject({
  from: digits,
  id: z.string().min(1).max(256),
  timestamp: epochSeconds,
  type: z.string().min(1).max(40),
  text: z.looseObject({ body: z.string().max(65_536) }).optional(),
  interactive: z
    .looseObject({
      type: z.string(),
      button_reply: replySchema.optional(),
      list_reply: replySchema.extend({ description: z.string().max(200).optional() }).optional(),
    })
    .optional(),
  /** A quick-reply button on a template. */
  button: z.looseObject({ payload: z.string().max(256).optional(), text: z.string().max(256) }).optional(),
  /** The message this one answers (a tap names the message its button was on). */
  context: z.looseObject({ id: z.string().max(256).optional(), from: z.string().optional() }).optional(),
});
export type InboundMessage = z.infer<typeof inboundMessageSchema>;

const errorSchema = z.looseObject({
  code: z.number().int(),
  title: z.string().max(500).optional(),
  message: z.string().max(2000).optional(),
});

/** What became of a message we sent: sent, delivered, read, or failed with Meta's error. */
export const statusSchema = z.looseObject({
  id: z.string().min(1).max(256),
  status: z.string().min(1).max(40),
  timestamp: epochSeconds,
  recipient_id: z.string().max(64),
  errors: z.array(errorSchema).optional(),
});
export type MessageStatus = z.infer<typeof statusSchema>;

/** The `value` of a `messages` change. */
export const messagesValueSchema = z.looseObject({
  messaging_product: z.literal('whatsapp'),
  metadata: z.looseObject({ phone_number_id: z.string().min(1).max(64) }),
  contacts: z.array(z.looseObject({ wa_id: z.string().max(64) })).optional(),
  messages: z.array(inboundMessageSchema).max(1000).optional(),
  statuses: z.array(statusSchema).max(1000).optional(),
});

/** The envelope; changes to other fields (templates, account updates) are passed over. */
export const webhookSchema = z.looseObject({
  object: z.literal('whatsapp_business_account'),
  entry: z
    .array(
      z.looseObject({
        id: z.string().max(64),
        changes: z.array(z.looseObject({ field: z.string().max(100), value: z.unknown() })).max(1000),
      }),
    )
    .max(1000),
});

/** What one webhook body asks of us, for our number only. */
export interface WebhookBatch {
  messages: InboundMessage[];
  statuses: MessageStatus[];
}

/** Reads a parsed JSON body; throws a ZodError naming the first bad field. */
export function readWebhook(body: unknown, phoneNumberId: string): WebhookBatch {
  const envelope = webhookSchema.parse(body);
  const batch: WebhookBatch = { messages: [], statuses: [] };
  for (const entry of envelope.entry) {
    for (const change of entry.changes) {
      if (change.field !== 'messages') continue;
      const value = messagesValueSchema.parse(change.value);
      // One app may serve several numbers: another number's messages are not ours to answer.
      if (value.metadata.phone_number_id !== phoneNumberId) continue;
      batch.messages.push(...(value.messages ?? []));
      batch.statuses.push(...(value.statuses ?? []));
    }
  }
  return batch;
}
