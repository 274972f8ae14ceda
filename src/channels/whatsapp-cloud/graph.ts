/**
 * The Graph API calls the transport makes (plain HTTPS and JSON): send a message, mark one read with
 * the typing indicator. Errors are read into `GraphError` with Meta's code, and `remedyOf` says what
 * to do about each code: wait and retry, fall back to a template, or give up on this user.
 */
import * as z from 'zod';

/** A message as the Messages API takes it, without `messaging_product` and `to`. */
export type WireMessage = { type: string } & Record<string, unknown>;

export interface GraphOptions {
  /** e.g. `https://graph.facebook.com/v23.0` (tests: a local fake). */
  baseUrl: string;
  phoneNumberId: string;
  token: string;
  /** Per request. Default 10 s. */
  timeoutMs?: number;
}

export interface GraphClient {
  /** Sends one message to `to` (a wa_id); resolves with the id Meta gave it. */
  send(to: string, message: WireMessage): Promise<string>;
  /** Marks an inbound message read (blue ticks) and, with `typing`, shows the typing indicator. */
  markRead(messageId: string, typing: boolean): Promise<void>;
  /** Uploads a picture (POST /<number id>/media); resolves with the media id a message may name. */
  upload(bytes: Buffer, mime: string, filename: string): Promise<string>;
}

/** What to do about a failed call. */
export type Remedy =
  /** Throughput, pair rate, Meta's own trouble: wait and send again. */
  | 'retry'
  /** The 24-hour window is closed: only a template may go. */
  | 'window'
  /** This user cannot get messages (not on WhatsApp, not an allowed test number, …). */
  | 'recipient'
  /** Our set-up or our request is wrong (token, template, parameters): not retried. */
  | 'fatal';

const RETRY_CODES = new Set([
  1, // API unknown
  2, // API service: temporary downtime or overload
  4, // app-level call rate
  80007, // WhatsApp Business Account rate limit
  130429, // the number's throughput reached
  131000, // something went wrong
  131016, // service unavailable
  131056, // pair rate limit: too many messages to this user
  131057, // account in maintenance (throughput upgrade)
  133004, // server temporarily unavailable
]);
const WINDOW_CODES = new Set([131047, 470]);
const RECIPIENT_CODES = new Set([131026, 131030, 131021, 131045, 131050, 131049]);

/** A Graph API call that did not succeed. Carries no token and no message content. */
export class GraphError extends Error {
  override name = 'GraphError';
  constructor(
    message: string,
    /** HTTP status (0: no answer: network error or timeout). */
    readonly status: number,
    /** Meta's error code, when it gave one. */
    readonly code?: number,
    readonly details?: string,
  ) {
    super(message);
  }

  get remedy(): Remedy {
    return remedyOf(this.code, this.status);
  }
}

/** The remedy for a Meta error code (or, without one, for the HTTP status). */
export function remedyOf(code: number | undefined, status = 400): Remedy {
  if (code !== undefined) {
    if (RETRY_CODES.has(code)) return 'retry';
    if (WINDOW_CODES.has(code)) return 'window';
    if (RECIPIENT_CODES.has(code)) return 'recipient';
    if (status < 500 && status !== 429 && status !== 0) return 'fatal';
  }
  return status === 0 || status === 429 || status >= 500 ? 'retry' : 'fatal';
}

const errorBody = z.object({
  error: z.looseObject({
    message: z.string().optional(),
    code: z.number().int().optional(),
    error_data: z.looseObject({ details: z.string().optional() }).optional(),
  }),
});
const sentBody = z.looseObject({ messages: z.array(z.looseObject({ id: z.string().min(1) })).min(1) });
/** What an upload answers: the media id. */
const uploadedBody = z.looseObject({ id: z.string().min(1) });

/** Creates the client; every call carries the token in the Authorization header only. */
export function createGraphClient(opts: GraphOptions): GraphClient {
  const url = `${opts.baseUrl.replace(/\/$/, '')}/${opts.phoneNumberId}/messages`;
  const timeoutMs = opts.timeoutMs ?? 10_000;

  async function post(body: Record<string, unknown> | FormData, to = url): Promise<unknown> {
    let res: Response;
    const isJson = !(body instanceof FormData);
    try {
      res = await fetch(to, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${opts.token}`,
          ...(isJson ? { 'content-type': 'application/json' } : {}),
        },
        body: isJson ? JSON.stringify({ messaging_product: 'whatsapp', ...body }) : body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const reason = (err as Error).name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : 'no answer';
      throw new GraphError(`Graph API: ${reason}`, 0);
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (res.ok) return json;
    const parsed = errorBody.safeParse(json);
    const e = parsed.success ? parsed.data.error : undefined;
    throw new GraphError(
      `Graph API ${res.status}${e?.code !== undefined ? ` (#${e.code})` : ''}: ${(e?.message ?? 'no error body').slice(0, 200)}`,
      res.status,
      e?.code,
      e?.error_data?.details?.slice(0, 300),
    );
  }

  return {
    async send(to, message) {
      const answer = sentBody.safeParse(await post({ recipient_type: 'individual', to, ...message }));
      if (!answer.success) throw new GraphError('Graph API: the answer names no message id', 200);
      return answer.data.messages[0]!.id;
    },
    async upload(bytes, mime, filename) {
      const form = new FormData();
      form.set('messaging_product', 'whatsapp');
      form.set('type', mime);
      form.set('file', new Blob([new Uint8Array(bytes)], { type: mime }), filename);
      const answer = uploadedBody.safeParse(await post(form, url.replace(/\/messages$/, '/media')));
      if (!answer.success) throw new GraphError('Graph API: the upload answer names no media id', 200);
      return answer.data.id;
    },
    async markRead(messageId, typing) {
      await post({
        status: 'read',
        message_id: messageId,
        ...(typing ? { typing_indicator: { type: 'text' } } : {}),
      });
    },
  };
}
