/**
 * Just enough of Redis's wire protocol (RESP2) for the Sentinel forwarder to ask a Sentinel where the
 * primary is and a node what its role is, before the connection is handed to node-redis.
 */

import net from 'node:net';
import type { SentinelTarget } from '../../config/redis-url.js';

export type Resp = string | number | null | Error | Resp[];

/** Encodes a command as a RESP array of bulk strings. */
export function command(...args: string[]): Buffer {
  return Buffer.from(
    `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`,
    'utf8',
  );
}

/** One reply parsed from `buf` at `at`: its value and where the next begins; undefined when incomplete. */
export function parseReply(buf: Buffer, at = 0): { value: Resp; next: number } | undefined {
  const end = buf.indexOf('\r\n', at);
  if (end < 0) return undefined;
  const head = buf.toString('utf8', at + 1, end);
  switch (String.fromCharCode(buf[at]!)) {
    case '+':
      return { value: head, next: end + 2 };
    case '-':
      return { value: new Error(head), next: end + 2 };
    case ':':
      return { value: Number(head), next: end + 2 };
    case '$': {
      const n = Number(head);
      if (n < 0) return { value: null, next: end + 2 };
      if (buf.length < end + 2 + n + 2) return undefined;
      return { value: buf.toString('utf8', end + 2, end + 2 + n), next: end + 2 + n + 2 };
    }
    case '*': {
      const n = Number(head);
      if (n < 0) return { value: null, next: end + 2 };
      const items: Resp[] = [];
      let next = end + 2;
      for (let i = 0; i < n; i++) {
        const item = parseReply(buf, next);
        if (!item) return undefined;
        items.push(item.value);
        next = item.next;
      }
      return { value: items, next };
    }
    default:
      throw new Error('not a RESP reply');
  }
}

/**
 * Connects to host:port, sends `commands` and reads one reply per command; the socket is left open
 * (paused, nothing unread) for the caller, or destroyed on failure or after `timeoutMs`.
 */
export function converse(
  host: string,
  port: number,
  commands: Buffer[],
  timeoutMs: number,
): Promise<{ socket: net.Socket; replies: Resp[] }> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection({ host, port, noDelay: true });
    let buf = Buffer.alloc(0);
    const fail = (err: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    };
    const timer = setTimeout(
      () => fail(new Error(`${host}:${port} did not answer in ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.once('error', fail);
    socket.once('close', () => fail(new Error(`${host}:${port} closed the connection`)));
    socket.once('connect', () => socket.write(Buffer.concat(commands)));
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const replies: Resp[] = [];
      let at = 0;
      try {
        while (replies.length < commands.length) {
          const r = parseReply(buf, at);
          if (!r) return;
          replies.push(r.value);
          at = r.next;
        }
      } catch (err) {
        fail(err as Error);
        return;
      }
      clearTimeout(timer);
      socket.off('data', onData);
      socket.removeAllListeners('error').removeAllListeners('close');
      socket.pause();
      resolve({ socket, replies });
    };
    socket.on('data', onData);
  });
}

/** The primary one Sentinel names for `target.name` (AUTH first when the Sentinels ask for a password). */
export async function primaryNamedBy(
  s: { host: string; port: number },
  target: Pick<SentinelTarget, 'name' | 'sentinelPassword'>,
  timeoutMs: number,
): Promise<{ host: string; port: number }> {
  const cmds = [
    ...(target.sentinelPassword ? [command('AUTH', target.sentinelPassword)] : []),
    command('SENTINEL', 'get-master-addr-by-name', target.name),
  ];
  const { socket, replies } = await converse(s.host, s.port, cmds, timeoutMs);
  socket.destroy();
  const reply = replies.at(-1);
  if (!Array.isArray(reply) || typeof reply[0] !== 'string')
    throw new Error(reply instanceof Error ? reply.message : `does not know "${target.name}"`);
  return { host: reply[0], port: Number(reply[1]) };
}
