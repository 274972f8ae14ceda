/** How the stand-in answers: JSON, msgpack, or an error message as algod and the indexer word it. */
import type { ServerResponse } from 'node:http';

export function json(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body);
}

export function msgpack(res: ServerResponse, body: Uint8Array) {
  res.writeHead(200, { 'content-type': 'application/msgpack' });
  res.end(Buffer.from(body));
}

export function message(res: ServerResponse, status: number, text: string) {
  json(res, status, JSON.stringify({ message: text }));
}
