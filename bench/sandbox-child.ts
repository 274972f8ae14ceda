/** The sandbox in its own process, so the benchmark's CPU figures are the tracker's alone. */
import { startSandbox } from '../src/sandbox/index.js';

const sandbox = await startSandbox({ port: 0, settleMs: 3_600_000 });
process.stdout.write(
  `${JSON.stringify({ url: sandbox.url, apiKey: sandbox.options.apiKey, apiSecret: sandbox.options.apiSecret })}\n`,
);
process.on('SIGTERM', () => {
  void sandbox.close().finally(() => process.exit(0));
});
