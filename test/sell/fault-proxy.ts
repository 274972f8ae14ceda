/**
 * A proxy in front of the ramp sandbox that loses answers at the wire: a request `lose` picks is
 * forwarded, acted on by the sandbox, and answered 502 (as a gateway that dropped the answer);
 * `unsent`: answered 502 without reaching the sandbox.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FaultProxy {
  url: string;
  /** Requests answered 502 (after the sandbox acted on them, unless `unsent`). */
  lost: Array<{ method: string; path: string }>;
  close(): Promise<void>;
}

const body = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

export async function startFaultProxy(
  target: string,
  lose: (method: string, path: string) => boolean | 'unsent',
): Promise<FaultProxy> {
  const lost: FaultProxy['lost'] = [];
  const server = createServer(async (req, res) => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const sent = await body(req);
    const loss = lose(method, path);
    if (loss === 'unsent') {
      lost.push({ method, path });
      res.writeHead(502, { 'content-type': 'text/html' });
      return res.end('<html>502 Bad Gateway</html>');
    }
    const headers = { ...req.headers };
    delete headers.host;
    const answer = await fetch(`${target}${path}`, {
      method,
      headers: headers as Record<string, string>,
      ...(sent.length ? { body: sent } : {}),
    });
    const text = Buffer.from(await answer.arrayBuffer());
    if (loss) {
      lost.push({ method, path });
      res.writeHead(502, { 'content-type': 'text/html' });
      return res.end('<html>502 Bad Gateway</html>');
    }
    res.writeHead(answer.status, {
      'content-type': answer.headers.get('content-type') ?? 'application/json',
    });
    res.end(text);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    lost,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
