/**
 * A redis-server of a test's (or the chaos run's) own, so it can be killed and started again on the
 * same port and folder: with AOF it comes back with its data, without it comes back empty.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, Socket } from 'node:net';

/** A free TCP port on 127.0.0.1. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });

async function answersPing(port: number, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = new Socket();
      s.once('error', () => resolve(false));
      s.connect(port, '127.0.0.1', () => s.write('PING\r\n'));
      s.once('data', (d: Buffer) => {
        s.destroy();
        resolve(d.toString().startsWith('+PONG'));
      });
    });
    if (ok) return;
    if (Date.now() > end) throw new Error('redis-server did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface OwnRedis {
  port: number;
  url: string;
  /** Starts it (again) and waits until it answers PING. */
  start(): Promise<void>;
  /** SIGKILLs it, as a crash would. */
  kill(): Promise<void>;
}

export function ownRedis(opts: { port: number; dir: string; aof: boolean }): OwnRedis {
  let child: ChildProcess | undefined;
  return {
    port: opts.port,
    url: `redis://127.0.0.1:${opts.port}`,
    async start() {
      child = spawn(
        'redis-server',
        [
          '--port',
          String(opts.port),
          '--bind',
          '127.0.0.1',
          '--dir',
          opts.dir,
          '--save',
          '',
          '--appendonly',
          opts.aof ? 'yes' : 'no',
          '--appendfsync',
          'always',
        ],
        { stdio: 'ignore' },
      );
      await answersPing(opts.port, 15_000);
    },
    async kill() {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((resolve) => c.once('exit', resolve));
      c.kill('SIGKILL');
      await exited;
    },
  };
}
