/**
 * `npm run doctor` (in the image: `npm run doctor` too, or `node dist/doctor/main.js`): checks the
 * settings in the environment against the real services and prints a table; exits 1 on any FAIL.
 * DOCTOR_TIMEOUT_MS bounds each outside call (default 10 s).
 */
import { loadDotEnv } from '../config/dotenv.js';
import { exitCode, formatTable, runDoctor } from './index.js';

// The same settings the app starts with: `.env` in the working directory, the environment first.
loadDotEnv();

const timeoutMs = Number(process.env.DOCTOR_TIMEOUT_MS ?? 10_000);
const rows = await runDoctor({
  env: process.env,
  timeoutMs: Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : 10_000,
});
process.stdout.write(`${formatTable(rows)}\n`);
const failed = rows.filter((r) => r.status === 'FAIL').length;
process.stdout.write(failed ? `\n${failed} check(s) failed.\n` : '\nAll configured parts answer.\n');
process.exit(exitCode(rows));
