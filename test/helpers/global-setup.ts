/**
 * Makes sure a real Redis answers before any test runs: the one at REDIS_TEST_URL or
 * redis://127.0.0.1:6379 if it answers, otherwise a redis-server started here on a free port
 * (and stopped at the end).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

function ping(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, host, () => socket.write('PING\r\n'));
    socket.once('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

let child: ChildProcess | undefined;

export async function setup(project: TestProject): Promise<void> {
  const url = await ensureRedis();
  process.env.TEST_REDIS_URL = url;
  project.provide('redisUrl', url);
}

async function ensureRedis(): Promise<string> {
  const given = process.env.REDIS_TEST_URL;
  if (given) return given;
  if (await ping(6379)) return 'redis://127.0.0.1:6379';
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'rampchat-redis-'));
  child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    {
      stdio: 'ignore',
    },
  );
  child.once('error', (e) => {
    throw new Error(
      `Tests need Redis: none answers on 6379 and redis-server could not start (${e.message}). Install redis-server.`,
    );
  });
  for (let i = 0; i < 50; i++) {
    if (await ping(port)) return `redis://127.0.0.1:${port}`;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('redis-server did not answer within 5 s');
}

export async function teardown(): Promise<void> {
  child?.kill('SIGTERM');
}
