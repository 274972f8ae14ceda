/**
 * The app as a replica: `src/main.ts` in a child process with the settings given (nothing inherited
 * but PATH), ready once its /healthz answers. Its log lines are kept for a failing test's message.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from './redis-server.js';

export interface AppProcess {
  child: ChildProcess;
  /** Base URL of its HTTP server. */
  url: string;
  /** Everything it wrote, stdout and stderr. */
  output(): string;
  /** Resolves with how it ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends a signal and waits for the exit. */
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts a replica (settings given, or made from its HTTP port) and waits (up to 60 s) for its
 * /healthz; `entry` runs a built file (`dist/main.js`) instead of the sources.
 */
export async function startAppProcess(
  settings: Record<string, string> | ((port: number) => Record<string, string>),
  opts: { entry?: string } = {},
): Promise<AppProcess> {
  const port = await freePort();
  const env = typeof settings === 'function' ? settings(port) : settings;
  const args = opts.entry ? [opts.entry] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, args, {
    env: {
      PATH: process.env.PATH ?? '',
      // Not `production`: that mode refuses local stand-ins (http fakes, the sandbox) at start.
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HTTP_PORT: String(port),
      HTTP_HOST: '127.0.0.1',
      JOURNAL_KEY: 'test-journal-key-0123456789abcdef0123456789',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app exited at start:\n${output}`);
    const up = await fetch(`${url}/healthz`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > end) throw new Error(`the app did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    child,
    url,
    output: () => output,
    exited,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
