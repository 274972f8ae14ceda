import { defineConfig } from 'vitest/config';
import SlowFirst from './test/helpers/slow-first.js';

/**
 * Folders whose test files may share one module registry per worker (`isolate: false`): most of a
 * file's time is importing the app (about 3 s a file), so reusing it halves these folders' time.
 * A folder joins only once its files have passed run together that way; the others keep a fresh
 * registry per file (their apps, metrics registries and timers must not meet). Left out after
 * trying: tracker (crash.test.ts failed 2 of 3 shared runs) and outbound (paid-broadcast 1 of 1),
 * on a machine at load ~12 where the load alone may have done it.
 */
const SHARED = [
  'flows',
  'alerts',
  'savings',
  'app',
  'engine',
  'store',
  'limits',
  'recovery',
  'chains',
  'ramp',
  'i18n',
  'http',
  'channels',
  'terminal',
  'signing',
  'sandbox',
  'support',
  'sell',
  'charts',
  'receipts',
  'config',
  'doctor',
  'architecture',
  'deploy',
  'smoke',
  'journeys',
  'tracker',
].map((folder) => `test/${folder}/**/*.test.ts`);

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 3,
    sequence: { sequencer: SlowFirst },
    projects: [
      { extends: true, test: { name: 'shared', include: SHARED, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: SHARED } },
    ],
  },
});
