/**
 * The doctor shows what outside services and Node answered (a ramp's error text, a URL error), and
 * those can carry what was sent: an endpoint that echoes its request, a URL with a password or key.
 * Every row passes through here before it is printed.
 */
import { isSentinelUrl, parseSentinelUrl } from '../config/redis-url.js';

/** Settings whose whole value is a secret. */
const SECRET_NAME = /(?:SECRET|TOKEN|PASSWORD|_KEY)(?:_|$)/;
const URLISH = /^[a-z][a-z0-9+.-]*:\/\//i;
/** A URL in free text, up to where a sentence would go on. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>)]+/gi;
/** Path segments this long are treated as keys (an RPC provider's `/v2/<key>`). */
const KEYISH_SEGMENT = /^[A-Za-z0-9_-]{16,}$/;
const HIDDEN = '***';

function urlSecrets(value: string): string[] {
  const out: string[] = [];
  const sentinel = isSentinelUrl(value.trim()) ? parseSentinelUrl(value.trim()) : undefined;
  if (sentinel && !(sentinel instanceof Error))
    for (const v of [sentinel.username, sentinel.password, sentinel.sentinelPassword]) if (v) out.push(v);
  for (const part of value.split(/[\s,]+/)) {
    if (!URLISH.test(part)) continue;
    let url: URL;
    try {
      url = new URL(part);
    } catch {
      continue;
    }
    if (url.username) out.push(url.username, decodeURIComponent(url.username));
    if (url.password) out.push(url.password, decodeURIComponent(url.password));
    for (const v of url.searchParams.values()) out.push(v);
    for (const seg of url.pathname.split('/')) if (KEYISH_SEGMENT.test(seg)) out.push(seg);
  }
  return out;
}

/** Every secret the settings hold: secret-named values, and the secret parts of every URL. */
export function secretsOf(env: NodeJS.ProcessEnv): string[] {
  const found = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    if (SECRET_NAME.test(name)) found.add(value);
    for (const s of urlSecrets(value)) found.add(s);
  }
  // Short values would hide ordinary words; longest first, so a secret inside another goes whole.
  return [...found].filter((s) => s.length >= 6).sort((a, b) => b.length - a.length);
}

/** A URL's user info and query values hidden, wherever a URL appears in the text. */
function scrubUrls(text: string): string {
  return text.replace(URL_IN_TEXT, (raw) => {
    const at = raw.indexOf('@');
    const scheme = raw.indexOf('://') + 3;
    let out =
      at > scheme && !raw.slice(scheme, at).includes('/')
        ? raw.slice(0, scheme) + HIDDEN + raw.slice(at)
        : raw;
    out = out.replace(/([?&][^=&#\s]+=)[^&#\s]*/g, `$1${HIDDEN}`);
    return out;
  });
}

/** The text with every configured secret (plain, URL-encoded or in base64) and URL credential hidden. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    for (const form of new Set([s, encodeURIComponent(s), Buffer.from(s).toString('base64')]))
      out = out.split(form).join(HIDDEN);
  }
  return scrubUrls(out);
}
