/**
 * PUBLIC_URL: answers over TLS with a certificate the system trusts (Telegram and users' browsers
 * need one), and its /healthz reaches the app behind the proxy.
 */
import { request } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { Config } from '../config/env.js';
import { type CheckResult, type DoctorContext, fail, ok, reason, skipped } from './types.js';

export async function checkPublicUrl(config: Config, ctx: DoctorContext): Promise<CheckResult[]> {
  const part = 'public url';
  const url = config.PUBLIC_URL;
  if (!url)
    return [
      config.NODE_ENV === 'production'
        ? fail(part, 'PUBLIC_URL is not set (required in production)')
        : skipped(part, 'PUBLIC_URL is not set (local mode)'),
    ];
  const target = new URL(`${url.replace(/\/$/, '')}/healthz`);
  if (target.protocol !== 'https:')
    return [fail(part, `${url} is not https: Telegram and browsers need TLS`)];
  try {
    const { status, daysLeft } = await new Promise<{ status: number; daysLeft?: number }>(
      (resolve, reject) => {
        const req = request(target, { method: 'GET', timeout: ctx.timeoutMs, ca: ctx.ca }, (res) => {
          const cert = (res.socket as TLSSocket).getPeerCertificate?.();
          const daysLeft = cert?.valid_to
            ? Math.floor((Date.parse(cert.valid_to) - Date.now()) / 86_400_000)
            : undefined;
          res.resume();
          resolve({ status: res.statusCode ?? 0, daysLeft });
        });
        req.on('timeout', () =>
          req.destroy(Object.assign(new Error('no answer in time'), { code: 'ETIMEDOUT' })),
        );
        req.on('error', reject);
        req.end();
      },
    );
    const cert = daysLeft === undefined ? 'TLS ok' : `TLS ok, certificate valid ${daysLeft} more day(s)`;
    if (daysLeft !== undefined && daysLeft < 7)
      return [fail(part, `${url}: certificate expires in ${daysLeft} day(s)`)];
    if (status !== 200)
      return [
        fail(part, `${url}: ${cert}, but /healthz answered ${status} (is the app running behind the proxy?)`),
      ];
    return [ok(part, `${url}: ${cert}, /healthz 200`)];
  } catch (err) {
    return [fail(part, `${url}: ${reason(err)}`)];
  }
}
