/**
 * `npm run doctor` against fakes of each part at the wire (real HTTP, real Redis servers, the
 * hardhat dev chain with the escrow): every part answers ok when set up right, and each fault it is
 * shown is one FAIL row that names it: a wrong token, a webhook elsewhere or failing, a support chat
 * without topics or where the bot is no admin, a bad ramp key, a wrong chain id, no code at the
 * escrow, refused Algorand tokens, Redis without AOF or down, a refused Graph token or unknown
 * number id, an untrusted certificate, a service that never answers. The CLI exits 1 on a FAIL.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevChain, startDevChain } from '../../src/chains/evm/devchain.js';
import { type CheckResult, exitCode, formatTable, runDoctor } from '../../src/doctor/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { type FakeAlgorand, startFakeAlgorand } from '../fakes/algorand.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { FakeWhatsAppGraphApi } from '../fakes/whatsapp-graph-api.js';
import { freePort, type OwnRedis, ownRedis } from '../helpers/redis-server.js';

const TOKEN = `123456789:${'D'.repeat(35)}`;
const SUPPORT = -1001234567890;
const BOT_ID = 7_000_000_001;
const RAMP = { apiKey: 'live-key-12345678', apiSecret: 'live-secret-0123456789abcdef' };
const CLOUD = {
  token: `EAAG${'t'.repeat(40)}`,
  phoneNumberId: '106540352242922',
  appSecret: '7c3e9a1f5b8d2e6a4c0f9b3d7e1a5c8b',
};
const ALGO = { algodToken: 'a'.repeat(64), indexerToken: 'i'.repeat(64) };

let sandbox: Sandbox;
let tg: FakeTelegramBotApi;
let graph: FakeWhatsAppGraphApi;
let algorand: FakeAlgorand;
let chain: DevChain;
let aof: OwnRedis;
let noAof: OwnRedis;
let tls: Server;
let tlsUrl: string;
let cert: string;
let healthStatus = 200;
let silent: Server;
let silentUrl: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'doctor-'));
  // A certificate for 127.0.0.1, trusted only where the test passes it as `ca`.
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '30', '-subj', '/CN=127.0.0.1'],
      ...[
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
    ],
    { stdio: 'ignore' },
  );
  cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  tls = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (req, res) => {
    res.writeHead(req.url === '/healthz' ? healthStatus : 404).end();
  });
  await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
  tlsUrl = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
  silent = createHttpServer(() => {});
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;

  aof = ownRedis({ port: await freePort(), dir: mkdtempSync(join(dir, 'aof-')), aof: true });
  noAof = ownRedis({ port: await freePort(), dir: mkdtempSync(join(dir, 'noaof-')), aof: false });
  [sandbox, tg, graph, algorand, chain] = await Promise.all([
    startSandbox(RAMP),
    FakeTelegramBotApi.start({ token: TOKEN }),
    FakeWhatsAppGraphApi.start(CLOUD),
    startFakeAlgorand(ALGO),
    startDevChain(),
    aof.start(),
    noAof.start(),
  ]);
  tg.setChat({ id: SUPPORT, type: 'supergroup', title: 'Rampchat support', is_forum: true });
  tg.setChatMember(SUPPORT, BOT_ID, 'administrator');
}, 120_000);

afterAll(async () => {
  await Promise.allSettled([
    sandbox?.close(),
    tg?.close(),
    graph?.close(),
    algorand?.close(),
    chain?.close(),
    aof?.kill(),
    noAof?.kill(),
  ]);
  tls?.closeAllConnections();
  tls?.close();
  silent?.closeAllConnections();
  silent?.close();
});

/** Settings where every part is right. */
const good = (): Record<string, string> => ({
  NODE_ENV: 'test',
  RAMP_BASE_URL: sandbox.url,
  RAMP_API_KEY: RAMP.apiKey,
  RAMP_API_SECRET: RAMP.apiSecret,
  TELEGRAM_BOT_TOKEN: TOKEN,
  TELEGRAM_API_ROOT: tg.url,
  SUPPORT_CHAT_ID: String(SUPPORT),
  WHATSAPP_ENABLED: '1',
  WHATSAPP_TRANSPORT: 'cloud',
  WHATSAPP_CLOUD_TOKEN: CLOUD.token,
  WHATSAPP_PHONE_NUMBER_ID: CLOUD.phoneNumberId,
  WHATSAPP_APP_SECRET: CLOUD.appSecret,
  WHATSAPP_VERIFY_TOKEN: 'verify-token-0123456789',
  WHATSAPP_GRAPH_API_URL: graph.graphUrl,
  REDIS_URL: aof.url,
  PUBLIC_URL: tlsUrl,
  EVM_POLYGON_ESCROW: chain.escrow,
  EVM_POLYGON_RPC_URL: chain.rpcUrl,
  EVM_POLYGON_CHAIN_ID: String(chain.chainId),
  SELL_ALGORAND_ENABLED: '1',
  ALGOD_URL: algorand.algodUrl,
  ALGOD_TOKEN: ALGO.algodToken,
  INDEXER_URL: algorand.indexerUrl,
  INDEXER_TOKEN: ALGO.indexerToken,
});

const doctor = (env: Record<string, string>, opts: { ca?: string; timeoutMs?: number } = {}) =>
  runDoctor({ env, timeoutMs: opts.timeoutMs ?? 5000, ca: 'ca' in opts ? opts.ca : cert });
const row = (rows: CheckResult[], part: string) => {
  const found = rows.find((r) => r.part === part);
  if (!found) throw new Error(`no row "${part}" in:\n${formatTable(rows)}`);
  return found;
};
const failed = (rows: CheckResult[]) => rows.filter((r) => r.status === 'FAIL').map((r) => r.part);

describe('npm run doctor', () => {
  it('reports every part ok when each answers as it should', async () => {
    const rows = await doctor(good());
    expect(failed(rows), formatTable(rows)).toEqual([]);
    for (const part of [
      'settings',
      'ramp quote',
      'telegram getMe',
      'telegram webhook',
      'support chat forum',
      'support chat admin',
      'whatsapp cloud',
      'redis',
      'redis persistence',
      'public url',
      'evm polygon rpc #1',
      'evm polygon escrow',
      'algorand algod',
      'algorand indexer',
    ])
      expect(row(rows, part).status, part).toBe('ok');
    expect(row(rows, 'telegram getMe').detail).toContain('@rampchat_test_bot');
    expect(row(rows, 'ramp quote').detail).toMatch(/KES 1000 -> [\d.]+ USDT/);
    expect(row(rows, 'redis').detail).toMatch(/Redis \d+\.\d+/);
    expect(row(rows, 'whatsapp cloud').detail).toContain('+254 700 000000');
    expect(exitCode(rows)).toBe(0);
  });

  it('a wrong Telegram token', async () => {
    const rows = await doctor({ ...good(), TELEGRAM_BOT_TOKEN: `123456789:${'X'.repeat(35)}` });
    expect(failed(rows)).toEqual(['telegram getMe']);
    expect(row(rows, 'telegram getMe').detail).toMatch(/refused the token.*TELEGRAM_BOT_TOKEN/);
    expect(formatTable(rows)).not.toContain('X'.repeat(35));
    expect(exitCode(rows)).toBe(1);
  });

  it('a webhook registered elsewhere, one missing, and one whose deliveries fail', async () => {
    const setWebhook = (url: string) =>
      fetch(`${tg.url}/bot${TOKEN}/setWebhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url }),
      });
    const want = 'https://rampchat.example.com/telegram/webhook';
    const env = { ...good(), TELEGRAM_WEBHOOK_URL: want, TELEGRAM_WEBHOOK_SECRET: 's'.repeat(32) };
    try {
      expect(row(await doctor(env), 'telegram webhook').detail).toMatch(/no webhook registered/);
      await setWebhook('https://old.example.com/hook');
      const elsewhere = row(await doctor(env), 'telegram webhook');
      expect(elsewhere.status).toBe('FAIL');
      expect(elsewhere.detail).toContain(
        'registered at https://old.example.com/hook, not TELEGRAM_WEBHOOK_URL',
      );
      // Long polling while a webhook is set: another deployment on this token.
      expect(row(await doctor(good()), 'telegram webhook')).toMatchObject({ status: 'FAIL' });
      await setWebhook(want);
      expect(row(await doctor(env), 'telegram webhook').status).toBe('ok');
      tg.webhookError = 'Wrong response from the webhook: 502 Bad Gateway';
      const failing = row(await doctor(env), 'telegram webhook');
      expect(failing.status).toBe('FAIL');
      expect(failing.detail).toContain('502 Bad Gateway');
    } finally {
      tg.webhookError = undefined;
      await setWebhook('');
    }
  });

  it('a support chat without topics, and one where the bot is no admin', async () => {
    try {
      tg.setChat({ id: SUPPORT, type: 'supergroup', title: 'Rampchat support', is_forum: false });
      tg.setChatMember(SUPPORT, BOT_ID, 'member');
      const rows = await doctor(good());
      expect(failed(rows)).toEqual(['support chat forum', 'support chat admin']);
      expect(row(rows, 'support chat forum').detail).toMatch(/Topics/);
      expect(row(rows, 'support chat admin').detail).toMatch(/"member".*admin/);
    } finally {
      tg.setChat({ id: SUPPORT, type: 'supergroup', title: 'Rampchat support', is_forum: true });
      tg.setChatMember(SUPPORT, BOT_ID, 'administrator');
    }
  });

  it('a bad ramp key is explained', async () => {
    const rows = await doctor({ ...good(), RAMP_API_KEY: 'wrong-key-1234567' });
    expect(failed(rows)).toEqual(['ramp quote']);
    expect(row(rows, 'ramp quote').detail).toMatch(
      /refused the credentials \(HTTP 401.*RAMP_API_KEY and RAMP_API_SECRET/,
    );
  });

  it('an RPC of another chain, and an escrow address with no code', async () => {
    // An RPC key in the URL's path never reaches the table.
    const keyed = `${chain.rpcUrl.replace(/\/$/, '')}/v2/rpc-key-Zq81`;
    const wrongChain = await doctor({ ...good(), EVM_POLYGON_RPC_URL: keyed, EVM_POLYGON_CHAIN_ID: '137' });
    expect(formatTable(wrongChain)).not.toContain('rpc-key-Zq81');
    expect(failed(wrongChain)).toEqual(['evm polygon rpc #1', 'evm polygon escrow']);
    expect(row(wrongChain, 'evm polygon rpc #1').detail).toContain(
      `is chain ${chain.chainId}, not polygon's 137`,
    );
    const noCode = await doctor({ ...good(), EVM_POLYGON_ESCROW: chain.beneficiary });
    expect(failed(noCode)).toEqual(['evm polygon escrow']);
    expect(row(noCode, 'evm polygon escrow').detail).toContain(`no contract code at ${chain.beneficiary}`);
  });

  it('Algorand tokens refused', async () => {
    const rows = await doctor({ ...good(), ALGOD_TOKEN: 'b'.repeat(64), INDEXER_TOKEN: 'j'.repeat(64) });
    expect(failed(rows)).toEqual(['algorand algod', 'algorand indexer']);
    expect(row(rows, 'algorand algod').detail).toMatch(/refused ALGOD_TOKEN \(HTTP 401\)/);
  });

  it('Redis without AOF, and Redis down', async () => {
    const rows = await doctor({ ...good(), REDIS_URL: noAof.url });
    expect(failed(rows)).toEqual(['redis persistence']);
    expect(row(rows, 'redis persistence').detail).toMatch(/AOF is off.*--appendonly yes/);
    const down = await doctor({ ...good(), REDIS_URL: `redis://:pw-secret@127.0.0.1:${await freePort()}` });
    expect(failed(down)).toEqual(['redis']);
    expect(row(down, 'redis').detail).toContain('ECONNREFUSED');
    expect(formatTable(down)).not.toContain('pw-secret');
  });

  it('a refused Graph token, and an unknown phone number id', async () => {
    const badToken = await doctor({ ...good(), WHATSAPP_CLOUD_TOKEN: `EAAG${'x'.repeat(40)}` });
    expect(failed(badToken)).toEqual(['whatsapp cloud']);
    expect(row(badToken, 'whatsapp cloud').detail).toMatch(/refused WHATSAPP_CLOUD_TOKEN \(#190/);
    const badId = await doctor({ ...good(), WHATSAPP_PHONE_NUMBER_ID: '999999999999' });
    expect(row(badId, 'whatsapp cloud').detail).toMatch(/WHATSAPP_PHONE_NUMBER_ID 999999999999 is unknown/);
  });

  it('a public URL with an untrusted certificate, without TLS, or whose app is down', async () => {
    const untrusted = await doctor(good(), { ca: undefined });
    expect(failed(untrusted)).toEqual(['public url']);
    expect(row(untrusted, 'public url').detail).toMatch(/self.signed|SELF_SIGNED|unable to verify/i);
    const plain = await doctor({ ...good(), PUBLIC_URL: tlsUrl.replace('https:', 'http:') });
    expect(row(plain, 'public url').detail).toMatch(/is not https/);
    healthStatus = 502;
    try {
      expect(row(await doctor(good()), 'public url').detail).toMatch(/TLS ok.*\/healthz answered 502/);
    } finally {
      healthStatus = 200;
    }
  });

  it('a service that never answers is a FAIL within the timeout, the other checks still report', async () => {
    const started = Date.now();
    const rows = await doctor({ ...good(), TELEGRAM_API_ROOT: silentUrl }, { timeoutMs: 800, ca: cert });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(failed(rows)).toEqual(['telegram getMe']);
    expect(row(rows, 'telegram getMe').detail).toMatch(/no answer in time/);
    expect(row(rows, 'ramp quote').status).toBe('ok');
  });

  it('production settings that are not complete are FAIL rows too', async () => {
    const rows = await doctor({ ...good(), NODE_ENV: 'production' });
    // The fakes are plain http and the token is no metrics token: production names them.
    expect(failed(rows)).toContain('settings');
    expect(rows.filter((r) => r.part === 'settings').map((r) => r.detail.split(':')[0])).toEqual(
      expect.arrayContaining(['RAMP_BASE_URL', 'METRICS_TOKEN']),
    );
  });
});

describe('the doctor command', () => {
  it('prints the table and exits 1 on a FAIL, naming no secret', async () => {
    const env = { ...good(), TELEGRAM_BOT_TOKEN: `123456789:${'X'.repeat(35)}`, SELL_ALGORAND_ENABLED: '0' };
    delete (env as Record<string, string | undefined>).PUBLIC_URL;
    const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, ['scripts/doctor.mjs'], {
        env: { PATH: process.env.PATH ?? '', DOCTOR_TIMEOUT_MS: '5000', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += String(d)));
      child.stderr.on('data', (d) => (out += String(d)));
      child.on('close', (c) => resolve({ code: c, out }));
    });
    expect(code, out).toBe(1);
    expect(out).toMatch(/^PART\s+STATUS\s+DETAIL$/m);
    expect(out).toMatch(/^telegram getMe\s+FAIL\s+Telegram refused the token/m);
    expect(out).toMatch(/^ramp quote\s+ok\s+/m);
    expect(out).toMatch(/^algorand\s+skipped\s+/m);
    expect(out).toContain('1 check(s) failed.');
    for (const secret of ['X'.repeat(35), RAMP.apiSecret, CLOUD.token]) expect(out).not.toContain(secret);
  }, 60_000);
});
