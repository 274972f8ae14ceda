/**
 * The Cloud API's settings at start: WHATSAPP_TRANSPORT picks the transport; with `cloud`, each
 * missing setting is refused by name; a bad value is named with what it expects; the secrets never
 * reach a log line.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/env.js';
import { createLogger } from '../../../src/log/logger.js';

function issuesOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
  return [];
}

const CLOUD = {
  WHATSAPP_ENABLED: '1',
  WHATSAPP_TRANSPORT: 'cloud',
  WHATSAPP_CLOUD_TOKEN: 'EAAG-secret-token-value',
  WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
  WHATSAPP_APP_SECRET: 'app-secret-0123456789abcdef',
  WHATSAPP_VERIFY_TOKEN: 'verify-token-0123456789',
  REDIS_URL: 'redis://127.0.0.1:6379',
};

describe('WhatsApp transport settings', () => {
  it('default to baileys, so existing set-ups keep working', () => {
    const config = loadConfig({ WHATSAPP_ENABLED: '1' });
    expect(config.WHATSAPP_TRANSPORT).toBe('baileys');
    expect(config.WHATSAPP_GRAPH_API_URL).toBe('https://graph.facebook.com/v23.0');
  });

  it('with cloud, every missing setting is refused by name', () => {
    expect(issuesOf(CLOUD)).toEqual([]);
    for (const name of Object.keys(CLOUD).filter(
      (n) => !n.startsWith('WHATSAPP_ENABLED') && n !== 'WHATSAPP_TRANSPORT',
    )) {
      const { [name]: _, ...without } = CLOUD as Record<string, string>;
      expect(issuesOf(without), name).toEqual([
        expect.stringMatching(new RegExp(`^${name}: required because WHATSAPP_TRANSPORT=cloud`)),
      ]);
    }
    // Not enabled: nothing is required.
    expect(issuesOf({ WHATSAPP_TRANSPORT: 'cloud' })).toEqual([]);
  });

  it('a bad value is named with what it expects', () => {
    expect(issuesOf({ ...CLOUD, WHATSAPP_TRANSPORT: 'official' })).toEqual([
      expect.stringMatching(/^WHATSAPP_TRANSPORT: /),
    ]);
    expect(issuesOf({ ...CLOUD, WHATSAPP_PHONE_NUMBER_ID: '+254 700 000000' })).toEqual([
      expect.stringMatching(/^WHATSAPP_PHONE_NUMBER_ID: the numeric phone number ID/),
    ]);
    expect(issuesOf({ ...CLOUD, WHATSAPP_VERIFY_TOKEN: 'short' })).toEqual([
      expect.stringMatching(/^WHATSAPP_VERIFY_TOKEN: 16-128/),
    ]);
    expect(issuesOf({ ...CLOUD, WHATSAPP_GRAPH_API_URL: 'not a url' })).toEqual([
      expect.stringMatching(/^WHATSAPP_GRAPH_API_URL: /),
    ]);
    expect(issuesOf({ ...CLOUD, WHATSAPP_TEMPLATE_NAME: 'Order Update' })).toEqual([
      expect.stringMatching(/^WHATSAPP_TEMPLATE_NAME: /),
    ]);
    expect(issuesOf({ ...CLOUD, WHATSAPP_CLOUD_MPS: '5000' })).toEqual([
      expect.stringMatching(/^WHATSAPP_CLOUD_MPS: /),
    ]);
  });

  it('the token, app secret and verify token are redacted from logs', () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      destination: new Writable({
        write(chunk, _e, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    });
    const config = loadConfig(CLOUD);
    logger.info({ config }, 'settings');
    logger.info(
      {
        cloud: {
          token: CLOUD.WHATSAPP_CLOUD_TOKEN,
          appSecret: CLOUD.WHATSAPP_APP_SECRET,
          verifyToken: CLOUD.WHATSAPP_VERIFY_TOKEN,
        },
      },
      'parts',
    );
    const all = lines.join('\n');
    expect(all).toContain('106540352242922');
    for (const secret of [CLOUD.WHATSAPP_CLOUD_TOKEN, CLOUD.WHATSAPP_APP_SECRET, CLOUD.WHATSAPP_VERIFY_TOKEN])
      expect(all).not.toContain(secret);
  });
});
