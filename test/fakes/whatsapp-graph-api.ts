/**
 * A local fake of Meta's WhatsApp Cloud API, at the wire: a real HTTP server answering
 * `POST /<version>/<phone number id>/messages` as the Graph API does (bearer token, Meta's limits on
 * buttons, lists and link buttons checked and refused with #131009 like Meta, the 24-hour window
 * enforced with #131047, Meta's throughput and pair rate enforced when asked with #130429 and
 * #131056, scripted error answers), and the Meta side of the webhook: user messages,
 * taps and statuses posted to the app signed with the app secret, as Meta signs them. Pictures are
 * uploaded to `POST /<phone number id>/media` (multipart, PNG or JPEG up to 5 MB) and sent as
 * `image` messages naming the media id; `mediaOf` gives a sent picture's bytes back. Documents are
 * uploaded the same way (Meta's document types: PDF, plain text, Office files; up to 100 MB) and sent
 * as `document` messages naming the media id and a filename.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// biome-ignore lint/suspicious/noExplicitAny: JSON on the wire
type Json = any;

export interface FakeGraphOptions {
  token: string;
  phoneNumberId: string;
  appSecret: string;
  version?: string;
  /** How a free-form message outside the window fails: answered #131047 (sync) or a failed status later (async). */
  windowFailure?: 'sync' | 'async';
  /** Meta's rate limits, enforced (none by default). */
  limits?: RateLimits;
}

/** Meta's limits on sends: the number's messages per second, and each user's pair rate. */
export interface RateLimits {
  /** At most this many messages in any one second, else #130429. */
  mps?: number;
  /** One user: `pairBurst` at once, then one per `pairIntervalMs`, else #131056. */
  pairIntervalMs?: number;
  pairBurst?: number;
  /** How early a message may come and still count as on time (network jitter; default 30 ms). */
  slackMs?: number;
}

export interface SentMessage {
  id: string;
  to: string;
  type: string;
  body: Json;
  at: number;
}

export interface ScriptedFailure {
  code: number;
  status?: number;
  message?: string;
  /** Fails only messages of this type (e.g. `template`). */
  type?: string;
  /** Answer the send, then report the failure in a status webhook (as Meta does for many codes). */
  async?: boolean;
}

const WINDOW_MS = 24 * 3600_000;
const wamid = () => `wamid.${randomBytes(12).toString('base64url')}`;

/** The fake; `graphUrl` is the Graph API root to give the app, `webhookUrl` where Meta posts. */
export class FakeWhatsAppGraphApi {
  graphUrl = '';
  webhookUrl = '';
  readonly sent: SentMessage[] = [];
  /** Uploaded pictures by media id. */
  readonly media = new Map<string, { bytes: Buffer; mime: string }>();
  readonly reads: Array<{ messageId: string; typing: boolean }> = [];
  /** Meta's error codes the fake answered sends with, in order. */
  readonly refusals: number[] = [];
  /** The same refusals with whom and when. */
  readonly refused: Array<{ code: number; to?: string; at: number }> = [];
  /** Webhook answers (status codes), in order. */
  readonly deliveries: number[] = [];
  private server?: Server;
  private readonly lastInbound = new Map<string, number>();
  private readonly failures: Array<ScriptedFailure & { times: number }> = [];
  private readonly pairTats = new Map<string, number>();

  private constructor(readonly opts: FakeGraphOptions) {}

  static async start(opts: FakeGraphOptions): Promise<FakeWhatsAppGraphApi> {
    const fake = new FakeWhatsAppGraphApi(opts);
    const server = createServer((req, res) => {
      fake.route(req, res).catch((e) => {
        if (!res.headersSent) res.writeHead(500).end(String(e));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    fake.server = server;
    fake.graphUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${opts.version ?? 'v23.0'}`;
    return fake;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }

  // ------------------------------------------------------------ test API: the Meta side

  /** The next `times` sends (of `type`, when given) fail with Meta's `code`. */
  failNext(failure: ScriptedFailure, times = 1): void {
    this.failures.push({ ...failure, times });
  }

  /** Scripted failures not used yet (how many tries the app made shows in what is left). */
  failuresLeft(): number {
    return this.failures.reduce((sum, f) => sum + f.times, 0);
  }

  clearFailures(): void {
    this.failures.length = 0;
  }

  /** Opens a user's 24-hour window as their message would, without posting a webhook. */
  openWindow(waId: string): void {
    this.lastInbound.set(waId, Date.now());
  }

  /** Accepted sends in the busiest second, from the first to the last. */
  peakPerSecond(): number {
    const times = this.sent.map((m) => m.at);
    let peak = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while ((times[i] as number) - (times[j] as number) >= 1000) j++;
      peak = Math.max(peak, i - j + 1);
    }
    return peak;
  }

  /** Moves a user's last message back in time (e.g. past the 24-hour window). */
  ageWindow(waId: string, byMs: number): void {
    this.lastInbound.set(waId, (this.lastInbound.get(waId) ?? Date.now()) - byMs);
  }

  /** Posts a raw body to the webhook, signed (or with the signature given); resolves with the status. */
  async post(body: string, signature: string | null = this.sign(body)): Promise<number> {
    const res = await fetch(this.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'x-hub-signature-256': signature } : {}),
      },
      body,
    });
    await res.text();
    this.deliveries.push(res.status);
    return res.status;
  }

  sign(body: string, secret = this.opts.appSecret): string {
    return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  }

  /** A `messages` webhook body carrying `value`. */
  envelope(value: Json): string {
    return JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550783881', phone_number_id: this.opts.phoneNumberId },
                ...value,
              },
            },
          ],
        },
      ],
    });
  }

  /** A user's message as Meta delivers it; returns its body (to redeliver) and id. */
  async userMessage(from: string, content: Json): Promise<{ body: string; id: string; status: number }> {
    const id = wamid();
    const message = { from, id, timestamp: String(Math.floor(Date.now() / 1000)), ...content };
    this.lastInbound.set(from, Date.now());
    const body = this.envelope({
      contacts: [{ profile: { name: 'Test User' }, wa_id: from }],
      messages: [message],
    });
    return { body, id, status: await this.post(body) };
  }

  sendText(from: string, text: string) {
    return this.userMessage(from, { type: 'text', text: { body: text } });
  }

  /** A tap on a reply button (or a list row) of the message `on`. */
  tap(from: string, on: SentMessage, id: string) {
    const list = on.body.interactive?.type === 'list';
    const rows: Json[] = list
      ? on.body.interactive.action.sections.flatMap((s: Json) => s.rows)
      : (on.body.interactive?.action?.buttons ?? []).map((b: Json) => b.reply);
    const chosen = rows.find((r: Json) => r.id === id);
    if (!chosen) throw new Error(`message ${on.id} has no choice ${id}`);
    const reply = list
      ? {
          type: 'list_reply',
          list_reply: {
            id,
            title: chosen.title,
            ...(chosen.description ? { description: chosen.description } : {}),
          },
        }
      : { type: 'button_reply', button_reply: { id, title: chosen.title } };
    return this.userMessage(from, {
      type: 'interactive',
      interactive: reply,
      context: { from: '15550783881', id: on.id },
    });
  }

  /** Reports a status of one of the app's messages (failed with `code`, when given). */
  status(message: SentMessage, status: string, code?: number): Promise<number> {
    return this.post(
      this.envelope({
        statuses: [
          {
            id: message.id,
            status,
            timestamp: String(Math.floor(Date.now() / 1000)),
            recipient_id: message.to,
            ...(code ? { errors: [{ code, title: `error ${code}`, message: `error ${code}` }] } : {}),
          },
        ],
      }),
    );
  }

  // ------------------------------------------------------------ test API: what the app sent

  to(waId: string): SentMessage[] {
    return this.sent.filter((m) => m.to === waId);
  }

  /** What a person would read: body or text, link lines, and the choices' titles. */
  static textOf(m: SentMessage): string {
    const b = m.body;
    if (m.type === 'text') return b.text.body;
    if (m.type === 'image') return b.image.caption ?? '';
    if (m.type === 'document') return b.document.caption ?? '';
    if (m.type === 'template') return b.template.components[0].parameters[0].text;
    const i = b.interactive;
    const choices =
      i.type === 'button'
        ? i.action.buttons.map((x: Json) => `[${x.reply.title}]`)
        : i.type === 'list'
          ? i.action.sections.flatMap((s: Json) => s.rows).map((r: Json) => `[${r.title}]`)
          : [`[${i.action.parameters.display_text} -> ${i.action.parameters.url}]`];
    return `${i.body.text}\n${choices.join(' ')}`;
  }

  /** The ids of the choices a message offers. */
  static choicesOf(m: SentMessage): string[] {
    const i = m.body.interactive;
    if (i?.type === 'button') return i.action.buttons.map((x: Json) => x.reply.id);
    if (i?.type === 'list') return i.action.sections.flatMap((s: Json) => s.rows).map((r: Json) => r.id);
    return [];
  }

  /** The bytes of a sent picture (an image message), as uploaded. */
  mediaOf(m: SentMessage): Buffer | undefined {
    if (m.type === 'document') return this.media.get(m.body.document.id)?.bytes;
    return m.type === 'image' ? this.media.get(m.body.image.id)?.bytes : undefined;
  }

  async waitFor<T>(check: () => T | undefined | null | false, ms = 8000, what = 'condition'): Promise<T> {
    const until = Date.now() + ms;
    for (;;) {
      const value = check();
      if (value) return value;
      if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  // ------------------------------------------------------------ the Graph API

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let p: Json;
    const answer = (status: number, body: Json): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const refuse = (code: number, message: string, details?: string, status = 400) => {
      this.refusals.push(code);
      this.refused.push({ code, to: typeof p?.to === 'string' ? p.to : undefined, at: Date.now() });
      answer(status, {
        error: {
          message,
          type: 'OAuthException',
          code,
          ...(details ? { error_data: { messaging_product: 'whatsapp', details } } : {}),
          fbtrace_id: 'AbCdEf',
        },
      });
    };

    const path = (req.url ?? '').split('?')[0];
    // The phone number node (what `npm run doctor` reads): its id, display number and name.
    if (req.method === 'GET') {
      const version = this.opts.version ?? 'v23.0';
      if (req.headers.authorization !== `Bearer ${this.opts.token}`)
        return refuse(190, 'Invalid OAuth access token - Cannot parse access token', undefined, 401);
      if (path !== `/${version}/${this.opts.phoneNumberId}`)
        return refuse(
          100,
          `Unsupported get request. Object with ID '${path?.split('/')[2]}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        );
      return answer(200, {
        id: this.opts.phoneNumberId,
        display_phone_number: '+254 700 000000',
        verified_name: 'Rampchat Test',
        quality_rating: 'GREEN',
      });
    }
    if (
      req.method === 'POST' &&
      path === `/${this.opts.version ?? 'v23.0'}/${this.opts.phoneNumberId}/media`
    ) {
      if (req.headers.authorization !== `Bearer ${this.opts.token}`)
        return refuse(190, 'Invalid OAuth access token - Cannot parse access token', undefined, 401);
      const form = await new Response(Buffer.concat(chunks), {
        headers: { 'content-type': req.headers['content-type'] ?? '' },
      })
        .formData()
        .catch(() => undefined);
      const file = form?.get('file');
      if (form?.get('messaging_product') !== 'whatsapp' || !(file instanceof Blob))
        return refuse(100, '(#100) The parameters messaging_product and file are required.');
      const mime = String(form.get('type') ?? file.type);
      const document = DOCUMENT_TYPES.includes(mime);
      if (
        document ? file.size > 100 * 1024 * 1024 : !IMAGE_TYPES.includes(mime) || file.size > 5 * 1024 * 1024
      )
        return refuse(131053, '(#131053) Media upload error', `${mime}, ${file.size} bytes`);
      const id = String(1_000_000_000_000 + this.media.size);
      this.media.set(id, { bytes: Buffer.from(await file.arrayBuffer()), mime });
      return answer(200, { id });
    }
    if (
      req.method !== 'POST' ||
      path !== `/${this.opts.version ?? 'v23.0'}/${this.opts.phoneNumberId}/messages`
    )
      return refuse(100, 'Unsupported post request.', undefined, 400);
    if (req.headers.authorization !== `Bearer ${this.opts.token}`)
      return refuse(190, 'Invalid OAuth access token - Cannot parse access token', undefined, 401);
    try {
      p = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return refuse(100, '(#100) Invalid parameter');
    }
    if (p.messaging_product !== 'whatsapp')
      return refuse(100, '(#100) The parameter messaging_product is required.');
    if (p.status === 'read') {
      if (typeof p.message_id !== 'string') return refuse(100, '(#100) Invalid parameter');
      this.reads.push({ messageId: p.message_id, typing: p.typing_indicator?.type === 'text' });
      return answer(200, { success: true });
    }
    const problem =
      (p.type === 'image' || p.type === 'document') && !this.media.has(p[p.type]?.id)
        ? `${p.type}.id: no media uploaded under it`
        : checkMessage(p);
    if (problem) return refuse(131009, '(#131009) Parameter value is not valid', problem);

    const failure = this.failures.find((f) => f.times > 0 && (!f.type || f.type === p.type));
    if (failure && !failure.async) {
      failure.times--;
      return refuse(
        failure.code,
        failure.message ?? `(#${failure.code}) scripted failure`,
        undefined,
        failure.status ?? 400,
      );
    }
    const last = this.lastInbound.get(p.to);
    const windowClosed = p.type !== 'template' && (last === undefined || Date.now() - last >= WINDOW_MS);
    if (windowClosed && (this.opts.windowFailure ?? 'sync') === 'sync')
      return refuse(
        131047,
        '(#131047) Re-engagement message',
        'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
      );

    const limited = this.rateLimited(p.to);
    if (limited === 130429)
      return refuse(130429, '(#130429) Rate limit hit', 'Cloud API message throughput has been reached.');
    if (limited === 131056)
      return refuse(
        131056,
        '(#131056) (Business Account, Consumer Account) pair rate limit hit',
        'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.',
      );

    const message: SentMessage = { id: wamid(), to: p.to, type: p.type, body: p, at: Date.now() };
    this.sent.push(message);
    answer(200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: p.to, wa_id: p.to }],
      messages: [{ id: message.id }],
    });
    const later = failure?.async ? failure.code : windowClosed ? 131047 : undefined;
    if (failure?.async) failure.times--;
    if (later) setTimeout(() => void this.status(message, 'failed', later).catch(() => {}), 20);
  }

  /** Meta's throughput and pair rate: the code a send to `to` now would be refused with, if any. */
  private rateLimited(to: string): number | undefined {
    const limits = this.opts.limits;
    if (!limits) return undefined;
    const now = Date.now();
    const slack = limits.slackMs ?? 30;
    if (limits.mps !== undefined) {
      const inLastSecond = this.sent.filter((m) => m.at > now - 1000 + slack).length;
      if (inLastSecond >= limits.mps) return 130429;
    }
    if (limits.pairIntervalMs !== undefined) {
      const interval = limits.pairIntervalMs;
      const tat = Math.max(this.pairTats.get(to) ?? 0, now);
      if (tat - interval * ((limits.pairBurst ?? 1) - 1) > now + slack) return 131056;
      this.pairTats.set(to, tat + interval);
    }
    return undefined;
  }
}

const IMAGE_TYPES = ['image/png', 'image/jpeg'];
/** The document types Meta's media upload takes (CSV is not one: it goes as text/plain). */
const DOCUMENT_TYPES = [
  'application/pdf',
  'text/plain',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
];

/** Meta counts the characters of a limit in UTF-16 code units (an emoji such as 🧪 is 2). */
const len = (s: unknown) => (typeof s === 'string' ? s.length : -1);

/** Meta's limits on what the app may send; a description of the first one broken. */
export function checkMessage(p: Json): string | undefined {
  if (typeof p.to !== 'string' || !/^\d{6,20}$/.test(p.to)) return 'to: not a wa_id';
  if (p.type === 'text') {
    const n = len(p.text?.body);
    return n >= 1 && n <= 4096 ? undefined : `text.body: ${n} characters (1-4096)`;
  }
  if (p.type === 'template') {
    const t = p.template;
    if (!t?.name || !t.language?.code) return 'template: name and language.code are required';
    for (const param of t.components?.flatMap((c: Json) => c.parameters ?? []) ?? [])
      if (/[\n\t]| {5,}/.test(param.text ?? ''))
        return 'template parameter: no new lines, tabs or more than 4 spaces';
    return undefined;
  }
  if (p.type === 'image') {
    if (typeof p.image?.id !== 'string') return 'image.id is required (the fake takes uploads only)';
    const n = p.image.caption === undefined ? 0 : len(p.image.caption);
    return n <= 1024 ? undefined : `image.caption: ${n} characters (max 1024)`;
  }
  if (p.type === 'document') {
    if (typeof p.document?.id !== 'string') return 'document.id is required (the fake takes uploads only)';
    if (!p.document.filename?.trim()) return 'document.filename is required (the user sees it)';
    const n = p.document.caption === undefined ? 0 : len(p.document.caption);
    return n <= 1024 ? undefined : `document.caption: ${n} characters (max 1024)`;
  }
  if (p.type !== 'interactive') return `type ${p.type} is not supported by this fake`;
  const i = p.interactive;
  const body = len(i?.body?.text);
  if (body < 1 || body > 1024) return `interactive.body.text: ${body} characters (1-1024)`;
  if (i.type === 'button') {
    const buttons: Json[] = i.action?.buttons ?? [];
    if (buttons.length < 1 || buttons.length > 3) return `buttons: ${buttons.length} (1-3)`;
    for (const b of buttons) {
      if (len(b.reply?.title) < 1 || len(b.reply.title) > 20)
        return `button title "${b.reply?.title}" (1-20)`;
      if (len(b.reply.id) < 1 || len(b.reply.id) > 256) return 'button id (1-256)';
    }
    if (new Set(buttons.map((b) => b.reply.id)).size !== buttons.length) return 'button ids must be unique';
    return undefined;
  }
  if (i.type === 'list') {
    if (len(i.action?.button) < 1 || len(i.action.button) > 20) return 'list button (1-20)';
    const sections: Json[] = i.action.sections ?? [];
    const rows = sections.flatMap((s) => s.rows ?? []);
    if (rows.length < 1 || rows.length > 10) return `rows: ${rows.length} (1-10)`;
    for (const s of sections) if (s.title !== undefined && len(s.title) > 24) return 'section title (max 24)';
    for (const r of rows) {
      if (len(r.title) < 1 || len(r.title) > 24) return `row title "${r.title}" (1-24)`;
      if (r.description !== undefined && len(r.description) > 72) return 'row description (max 72)';
      if (len(r.id) < 1 || len(r.id) > 200) return 'row id (1-200)';
    }
    return undefined;
  }
  if (i.type === 'cta_url') {
    const params = i.action?.parameters;
    if (i.action?.name !== 'cta_url') return 'action.name must be cta_url';
    if (len(params?.display_text) < 1 || len(params.display_text) > 20) return 'display_text (1-20)';
    if (!/^https?:\/\//.test(params.url ?? '')) return 'url';
    return undefined;
  }
  return `interactive type ${i.type} is not supported by this fake`;
}
