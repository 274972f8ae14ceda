/**
 * `npm run doctor`: checks each configured part against the real service with the given settings
 * and credentials, one row per part (ok, FAIL or skipped, with what was found). Nothing is created
 * or sent: a quote, reads of the Bot API, the Graph API, the chains and Redis, and a GET of PUBLIC_URL.
 */
import { type Config, ConfigError } from '../config/env.js';
import { settingsIssues } from '../config/refusals.js';
import { checkAlgorand } from './algorand.js';
import { checkEvm } from './evm.js';
import { checkPublicUrl } from './public-url.js';
import { checkRamp } from './ramp.js';
import { checkRedis } from './redis.js';
import { scrub, secretsOf } from './scrub.js';
import { checkTelegram } from './telegram.js';
import { type CheckResult, type DoctorContext, fail, ok, reason } from './types.js';
import { checkWhatsApp } from './whatsapp.js';

export type { CheckResult, DoctorContext } from './types.js';

/** The checks, each named for a row when it fails as a whole (a bad setting, its deadline). */
const CHECKS: Array<[string, (config: Config, ctx: DoctorContext) => Promise<CheckResult[]>]> = [
  ['ramp', checkRamp],
  ['telegram', checkTelegram],
  ['whatsapp', checkWhatsApp],
  ['redis', checkRedis],
  ['public url', checkPublicUrl],
  ['evm', (_config, ctx) => checkEvm(ctx)],
  ['algorand', (_config, ctx) => checkAlgorand(ctx)],
];

/** Runs every check at once; a check that outlasts its deadline is one FAIL row, the others still report. */
export async function runDoctor(ctx: DoctorContext): Promise<CheckResult[]> {
  const secrets = secretsOf(ctx.env);
  const rows = await runChecks(ctx);
  return rows.map((r) => ({ ...r, detail: scrub(r.detail, secrets) }));
}

async function runChecks(ctx: DoctorContext): Promise<CheckResult[]> {
  const { config, issues, unparsed } = settingsIssues(ctx.env);
  // Settings that do not parse: the checks would run on guesses, so the rows name them only.
  if (unparsed) return issues.map((i) => fail('settings', i));
  const settings =
    issues.length > 0
      ? issues.map((i) => fail('settings', i))
      : [ok('settings', `${config.NODE_ENV} settings complete`)];
  // A check makes a few calls in a row, each bounded by timeoutMs; the whole check by a few of them.
  const deadline = ctx.timeoutMs * 3 + 1000;
  const rows = await Promise.all(
    CHECKS.map(async ([name, check]) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<CheckResult[]>((resolve) => {
        timer = setTimeout(() => resolve([fail(name, `no answer within ${deadline} ms`)]), deadline);
      });
      try {
        return await Promise.race([check(config, ctx).catch((err) => [fail(name, checkError(err))]), late]);
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return [...settings, ...rows.flat()];
}

const checkError = (err: unknown) => (err instanceof ConfigError ? err.issues.join('; ') : reason(err));

/** The rows as a plain-text table (part, status, detail). */
export function formatTable(rows: CheckResult[]): string {
  const header: CheckResult = { part: 'PART', status: 'ok', detail: 'DETAIL' };
  const width = Math.max(...[header, ...rows].map((r) => r.part.length));
  const line = (part: string, status: string, detail: string) =>
    `${part.padEnd(width)}  ${status.padEnd(7)}  ${detail}`;
  return [line('PART', 'STATUS', 'DETAIL'), ...rows.map((r) => line(r.part, r.status, r.detail))].join('\n');
}

/** Exit status: 1 when any row failed. */
export const exitCode = (rows: CheckResult[]) => (rows.some((r) => r.status === 'FAIL') ? 1 : 0);
