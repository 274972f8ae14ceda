/**
 * The real baileys socket against a local WhatsApp Web server (fake-wa-server.ts): reconnection
 * with backoff, no reconnection after a logout, QR codes and pairing codes.
 */
import { Registry } from 'prom-client';
import type { RedisClientType } from 'redis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createWhatsAppChannel,
  loadRedisAuthState,
  type WhatsAppChannel,
  type WhatsAppChannelOptions,
  whatsappKeys,
} from '../../../src/channels/whatsapp/index.js';
import { connectTestRedis, flushPrefix, uniquePrefix } from '../../helpers/redis.js';
import {
  type FakeWhatsAppServer,
  type Script,
  stanzas,
  startFakeWhatsAppServer,
  trustTestRoot,
} from './fake-wa-server.js';
import { recordingConversation, silent, testI18n, waitFor } from './helpers.js';

describe('WhatsApp connection (real baileys, local server)', () => {
  let redis: RedisClientType;
  let prefix: string;
  let server: FakeWhatsAppServer | undefined;
  let channel: WhatsAppChannel | undefined;
  let untrust: () => void;

  beforeAll(() => {
    untrust = trustTestRoot();
  });
  afterAll(() => untrust());

  beforeEach(async () => {
    redis = await connectTestRedis();
    prefix = uniquePrefix('wa-conn');
  });

  afterEach(async () => {
    await channel?.stop();
    await server?.close();
    channel = undefined;
    server = undefined;
    await flushPrefix(redis, prefix);
    await redis.quit();
  });

  async function connect(script: (n: number) => Script, extra: Partial<WhatsAppChannelOptions> = {}) {
    server = await startFakeWhatsAppServer(script);
    const registry = new Registry();
    channel = createWhatsAppChannel({
      conversation: recordingConversation(),
      i18n: testI18n(),
      redis,
      logger: silent,
      keyPrefix: prefix,
      numberId: 'bot',
      socketUrl: server.url,
      registry,
      reconnect: { baseMs: 20, maxMs: 80 },
      connectTimeoutMs: 5_000,
      onQr: () => undefined,
      baileysLogLevel: 'silent',
      ...extra,
    });
    const reconnects: { attempt: number; delayMs: number; code: number }[] = [];
    channel.events.on('reconnect', (r) => reconnects.push(r));
    await channel.start();
    return { channel, registry, reconnects, server };
  }

  it('reconnects with capped, jittered exponential backoff after the server closes', async () => {
    const { reconnects, server } = await connect(() => ({ kind: 'close' }));
    await waitFor(() => reconnects.length >= 5, 10_000, 'five reconnects');
    expect(reconnects.slice(0, 5).map((r) => r.code)).toEqual([428, 428, 428, 428, 428]);
    reconnects.slice(0, 5).forEach((r, i) => {
      const ceiling = Math.min(80, 20 * 2 ** i);
      expect(r.attempt).toBe(i + 1);
      expect(r.delayMs).toBeGreaterThanOrEqual(ceiling / 2);
      expect(r.delayMs).toBeLessThanOrEqual(ceiling);
    });
    expect(server.connections).toBeGreaterThanOrEqual(5);
  });

  it('reconnects after restart-required (515) and keeps the saved session', async () => {
    const keys = whatsappKeys(prefix, 'bot');
    const before = await loadRedisAuthState(redis, keys);
    await before.saveCreds();
    const { channel, reconnects, server } = await connect((n) =>
      n === 0 ? stanzas.restartRequired() : { kind: 'close' },
    );
    await waitFor(() => reconnects.length >= 2, 10_000, 'reconnects');
    expect(reconnects[0]!.code).toBe(515);
    expect(server.connections).toBeGreaterThanOrEqual(2);
    expect(channel.state).not.toBe('logged_out');
    const after = await loadRedisAuthState(redis, keys);
    expect(Buffer.from(after.state.creds.noiseKey.public)).toEqual(
      Buffer.from(before.state.creds.noiseKey.public),
    );
  });

  it('does not reconnect after a logout (401): clears the session and counts it', async () => {
    const keys = whatsappKeys(prefix, 'bot');
    const stale = await loadRedisAuthState(redis, keys);
    await stale.saveCreds();
    await stale.state.keys.set({ session: { old: new Uint8Array([1, 2]) } });

    const { channel, registry, reconnects, server } = await connect(() => stanzas.loggedOut());
    await waitFor(() => channel.state === 'logged_out', 10_000, 'logged out');
    expect(reconnects).toEqual([]);
    expect(server.connections).toBe(1);
    expect(await redis.exists([keys.creds, keys.signalKeys('session'), keys.lease])).toBe(0);
    const counter = await registry.getSingleMetric('rampchat_whatsapp_logged_out_total')!.get();
    expect(counter.values[0]!.value).toBe(1);
    const gauge = await registry.getSingleMetric('rampchat_whatsapp_connection_state')!.get();
    expect(gauge.values.find((v) => v.labels.state === 'logged_out')!.value).toBe(1);

    await new Promise((r) => setTimeout(r, 150));
    expect(server.connections).toBe(1);
  });

  it('shows the QR code WhatsApp sends for pairing', async () => {
    const qrs: string[] = [];
    await connect(() => stanzas.pairDevice(), { onQr: (qr) => qrs.push(qr) });
    await waitFor(() => qrs.length === 1, 10_000, 'a QR code');
    expect(qrs[0]).toContain('#2@test-ref-1,');
  });

  it('asks for a pairing code instead when a pairing number is set', async () => {
    const codes: string[] = [];
    const qrs: string[] = [];
    await connect(() => stanzas.pairDevice(), {
      pairingNumber: '+254 700 000 123',
      onPairingCode: (code) => codes.push(code),
      onQr: (qr) => qrs.push(qr),
    });
    await waitFor(() => codes.length === 1, 10_000, 'a pairing code');
    expect(codes[0]).toMatch(/^[A-Z0-9]{8}$/);
    expect(qrs).toEqual([]);
    // The code and the number it was asked for are saved with the credentials (creds.update).
    const saved = await waitFor(async () => {
      const { creds } = (await loadRedisAuthState(redis, whatsappKeys(prefix, 'bot'))).state;
      return creds.pairingCode === codes[0] ? creds : undefined;
    });
    expect(saved?.me?.id).toBe('254700000123@s.whatsapp.net');
  });
});
