/**
 * /metrics without METRICS_TOKEN answers only a direct request from this machine: a request from
 * another address, or one a proxy forwarded (X-Forwarded-For / Forwarded), gets 403. With a token,
 * the token decides wherever the request comes from.
 */
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer, type HttpServer } from '../../src/http/index.js';

const servers: HttpServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function serve(metricsToken?: string): Promise<number> {
  const http = createHttpServer({ health: async () => ({ ok: true, details: {} }), metricsToken });
  servers.push(http);
  return (await http.listen(0, '0.0.0.0')).port;
}

/** An address of this machine that is not loopback (a request to it comes from it, too). */
const outsideAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

describe('/metrics reach', () => {
  it('without a token: 200 on loopback, 403 through a proxy', async () => {
    const port = await serve();
    const direct = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(direct.status).toBe(200);
    expect(await direct.text()).toContain('rampchat_process_cpu');
    const proxies: Array<Record<string, string>> = [
      { 'x-forwarded-for': '203.0.113.9' },
      { forwarded: 'for=203.0.113.9' },
    ];
    for (const header of proxies) {
      const proxied = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: header });
      expect(proxied.status).toBe(403);
      expect(await proxied.text()).toContain('METRICS_TOKEN');
    }
  });

  it.runIf(outsideAddress)('without a token: 403 from an address beyond loopback', async () => {
    const port = await serve();
    const res = await fetch(`http://${outsideAddress}:${port}/metrics`);
    expect(res.status).toBe(403);
  });

  it('with a token: the token decides, proxied or not', async () => {
    const token = 't'.repeat(32);
    const port = await serve(token);
    const auth = { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.9' };
    expect((await fetch(`http://127.0.0.1:${port}/metrics`, { headers: auth })).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
  });
});
