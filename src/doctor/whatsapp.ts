/**
 * WhatsApp: on the Cloud API, the access token and the phone number ID against the Graph API (the
 * number's display name and quality). Baileys pairs at start (QR or code): nothing to check ahead.
 */
import type { Config } from '../config/env.js';
import { fetchJson, shownUrl } from './http.js';
import { type CheckResult, type DoctorContext, fail, ok, reason, skipped } from './types.js';

export async function checkWhatsApp(config: Config, ctx: DoctorContext): Promise<CheckResult[]> {
  const part = 'whatsapp cloud';
  if (!config.WHATSAPP_ENABLED) return [skipped('whatsapp', 'WHATSAPP_ENABLED is off')];
  if (config.WHATSAPP_TRANSPORT !== 'cloud')
    return [skipped('whatsapp', 'baileys: the number is paired at start (QR or pairing code)')];
  const root = config.WHATSAPP_GRAPH_API_URL.replace(/\/$/, '');
  const id = config.WHATSAPP_PHONE_NUMBER_ID ?? '';
  try {
    const { status, body } = await fetchJson(
      `${root}/${id}?fields=display_phone_number,verified_name,quality_rating`,
      { timeoutMs: ctx.timeoutMs, headers: { authorization: `Bearer ${config.WHATSAPP_CLOUD_TOKEN ?? ''}` } },
    );
    if (status === 200 && body?.id)
      return [
        ok(
          part,
          `${body.verified_name ?? '?'} ${body.display_phone_number ?? ''} (quality ${body.quality_rating ?? '?'})`.trim(),
        ),
      ];
    const e = body?.error ?? {};
    if (e.code === 190 || status === 401)
      return [
        fail(
          part,
          `the Graph API refused WHATSAPP_CLOUD_TOKEN (#${e.code ?? status} ${e.message ?? ''}): a system user's permanent token with whatsapp_business_messaging`,
        ),
      ];
    if (e.code === 100 || status === 404)
      return [
        fail(
          part,
          `WHATSAPP_PHONE_NUMBER_ID ${id} is unknown or not reachable with this token (#${e.code ?? status} ${e.message ?? ''})`,
        ),
      ];
    return [fail(part, `${shownUrl(root)}: HTTP ${status} ${e.message ?? ''}`.trim())];
  } catch (err) {
    return [fail(part, `${shownUrl(root)}: ${reason(err)}`)];
  }
}
