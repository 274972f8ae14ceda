/** A tiny ramp stand-in at the wire for client tests: each test sets how it answers and reads what it got. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Responder = (req: Seen, res: ServerResponse) => void;

export interface Wire {
  url: string;
  port: number;
  seen: Seen[];
  respond: Responder;
  close(): Promise<void>;
}

/** Answers `body` (a string is sent verbatim) with `status`. */
export const json =
  (body: unknown, status = 200): Responder =>
  (_req, res) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(text);
  };

export async function startWire(port = 0): Promise<Wire> {
  const wire: Wire = {
    url: '',
    port: 0,
    seen: [],
    respond: json({ status: 'error', message: 'no responder' }, 500),
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: Seen = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      wire.seen.push(seen);
      wire.respond(seen, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  wire.port = (server.address() as AddressInfo).port;
  wire.url = `http://127.0.0.1:${wire.port}`;
  wire.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return wire;
}

/** A port nothing listens on (yet). */
export async function freePort(): Promise<number> {
  const w = await startWire();
  const { port } = w;
  await w.close();
  return port;
}
