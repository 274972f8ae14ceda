/** Plumbing the outside runs share (chaos, burst): a seeded PRNG, HTTP forwarding, a balancer. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { freePort } from '../test/helpers/redis-server.js';

/** A small deterministic PRNG (mulberry32), so a run can be repeated with CHAOS_SEED. */
export function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Forwards one request to `port`; resolves with the upstream status and body (undefined if it failed). */
export function forward(
  port: number,
  req: IncomingMessage,
  body: Buffer,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer } | undefined> {
  return new Promise((resolve) => {
    const up = httpRequest(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
      async (res) => {
        const chunks: Buffer[] = [];
        for await (const c of res) chunks.push(c as Buffer);
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers[k] = v;
        resolve({ status: res.statusCode ?? 502, headers, body: Buffer.concat(chunks) });
      },
    );
    up.on('error', () => resolve(undefined));
    up.end(body);
  });
}

/** Round-robin over the replicas that answer; 502 when none does. */
export async function startBalancer(
  ports: () => number[],
  onAnswer?: (path: string, status: number) => void,
) {
  let next = 0;
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const live = ports();
    for (let i = 0; i < live.length; i++) {
      const port = live[(next++ + i) % live.length]!;
      const answer = await forward(port, req, body);
      if (!answer) continue;
      onAnswer?.(req.url ?? '', answer.status);
      res.writeHead(answer.status, answer.headers);
      return res.end(answer.body);
    }
    res.writeHead(502);
    res.end();
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** What an app process of an outside run needs to know about the run's fakes. */
export interface AppWiring {
  port: number;
  redisUrl: string;
  token: string;
  botApi: string;
  /** Webhook mode when set (the balancer's URL and the secret); long polling otherwise. */
  webhook?: { url: string; secret: string };
  publicUrl: string;
  ramp: { url: string; apiKey: string; apiSecret: string };
  supportChat: number;
  agent: number;
  dataDir: string;
  logLevel?: string;
}

/** The environment of an app process (production mode, every user buying for their own number). */
export function appEnv(w: AppWiring, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    // Production's wiring, but not NODE_ENV=production: that refuses the http fakes and sandbox at start.
    NODE_ENV: 'test',
    LOG_LEVEL: w.logLevel ?? 'silent',
    HTTP_PORT: String(w.port),
    HTTP_HOST: '127.0.0.1',
    REDIS_URL: w.redisUrl,
    JOURNAL_KEY: 'bench-journal-key-0123456789abcdef0123456789',
    TELEGRAM_BOT_TOKEN: w.token,
    TELEGRAM_API_ROOT: w.botApi,
    ...(w.webhook ? { TELEGRAM_WEBHOOK_URL: w.webhook.url, TELEGRAM_WEBHOOK_SECRET: w.webhook.secret } : {}),
    PUBLIC_URL: w.publicUrl,
    RAMP_BASE_URL: w.ramp.url,
    RAMP_API_KEY: w.ramp.apiKey,
    RAMP_API_SECRET: w.ramp.apiSecret,
    SUPPORT_CHAT_ID: String(w.supportChat),
    SUPPORT_AGENT_IDS: String(w.agent),
    DATA_DIR: w.dataDir,
    // Each chat user of a run buys for their own number: no third-party limits in play.
    LIMIT_STK_PER_USER: '50',
    LIMIT_STK_PER_PHONE: '50',
    ...extra,
  };
}

/** Spawns `src/main.ts` (of `cwd`, default this checkout) and waits until its /healthz answers. */
export async function spawnApp(
  env: NodeJS.ProcessEnv,
  opts: { port: number; cwd?: string; inheritStderr?: boolean },
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: opts.cwd,
    env,
    // With logs asked for, the app's log lines (stdout) and errors go to this process's stderr.
    stdio: [
      'ignore',
      opts.inheritStderr ? process.stderr : 'ignore',
      opts.inheritStderr ? 'inherit' : 'ignore',
    ],
  });
  const end = Date.now() + 60_000;
  while (Date.now() < end && child.exitCode === null) {
    const ok = await fetch(`http://127.0.0.1:${opts.port}/healthz`).then(
      (r) => r.status < 600,
      () => false,
    );
    if (ok) break;
    await sleep(200);
  }
  return child;
}
