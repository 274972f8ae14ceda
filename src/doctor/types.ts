/** What each check of `npm run doctor` reports: one row per part. */
export type Status = 'ok' | 'FAIL' | 'skipped';

export interface CheckResult {
  /** The part checked, e.g. "telegram getMe", "evm polygon rpc #1". */
  part: string;
  status: Status;
  /** What was found, or what is wrong and what to check (never a secret). */
  detail: string;
}

export interface DoctorContext {
  /** The environment the app would start with. */
  env: NodeJS.ProcessEnv;
  /** How long one outside call may take. */
  timeoutMs: number;
  /** Extra trusted certificates for the public URL check (tests; production uses the system's). */
  ca?: string | Buffer;
}

export const ok = (part: string, detail: string): CheckResult => ({ part, status: 'ok', detail });
export const fail = (part: string, detail: string): CheckResult => ({ part, status: 'FAIL', detail });
export const skipped = (part: string, detail: string): CheckResult => ({ part, status: 'skipped', detail });

/** An error's message, for a row's detail. */
export function reason(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const code = cause?.code ?? (err as { code?: string }).code;
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'no answer in time';
    return code && !err.message.includes(code) ? `${err.message} (${code})` : err.message;
  }
  return String(err);
}
