/**
 * The HTTP surface as the app starts it: local mode listens on loopback only; /metrics behind a
 * bearer token when METRICS_TOKEN is set; a busy port is named by its setting.
 */
import { networkInterfaces } from 'node:os';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startApp } from '../../src/app/start.js';
import { loadConfig } from '../../src/config/env.js';

const start = (env: Record<string, string>) =>
  startApp(loadConfig({ HTTP_PORT: '0', LOG_LEVEL: 'silent', ...env }), {
    stdin: new PassThrough(),
    stdout: new PassThrough(),
  });

describe('the HTTP surface', () => {
  it('local mode listens on 127.0.0.1 only, and /metrics needs the token when one is set', async () => {
    const app = await start({ METRICS_TOKEN: 'metrics-token-for-tests-0123456789' });
    try {
      const addr = app.http.server.address();
      expect(typeof addr === 'object' && addr?.address).toBe('127.0.0.1');
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      const external = Object.values(networkInterfaces())
        .flat()
        .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
      if (external) await expect(fetch(`http://${external}:${port}/healthz`)).rejects.toThrow();
      const base = `http://127.0.0.1:${port}`;
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      const wrong = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer nope' } });
      expect(wrong.status).toBe(401);
      const ok = await fetch(`${base}/metrics`, {
        headers: { authorization: 'Bearer metrics-token-for-tests-0123456789' },
      });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('rampchat_');
    } finally {
      await app.stop();
    }
  });

  it('a busy HTTP_PORT is named in the error', async () => {
    const first = await start({});
    try {
      const addr = first.http.server.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      await expect(start({ HTTP_PORT: String(port) })).rejects.toThrow(/HTTP_PORT \d+ is already in use/);
    } finally {
      await first.stop();
    }
  });
});
