/**
 * REDIS_URL names one Redis (`redis://…`, `rediss://…`) or a primary watched by Redis Sentinel:
 * `redis+sentinel://[[user]:password@]host:port[,host:port…]/<primary name>[/<db>][?sentinel_password=…]`
 * (the user and password are the data nodes'; `sentinel_password` is the Sentinels' own, when they
 * ask for one). One setting either way, so every part that opens a Redis connection follows it.
 */
import * as z from 'zod';

export interface SentinelTarget {
  sentinels: Array<{ host: string; port: number }>;
  /** The primary's name as the Sentinels know it (`sentinel monitor <name> …`). */
  name: string;
  db: number;
  username?: string;
  password?: string;
  sentinelPassword?: string;
}

export const SENTINEL_SCHEME = 'redis+sentinel:';

export const isSentinelUrl = (url: string) => url.toLowerCase().startsWith(`${SENTINEL_SCHEME}//`);

/** The Sentinel URL read, or what is wrong with it. */
export function parseSentinelUrl(url: string): SentinelTarget | Error {
  if (!isSentinelUrl(url)) return new Error('not a redis+sentinel:// URL');
  let rest = url.slice(SENTINEL_SCHEME.length + 2);
  let query = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  const slash = rest.indexOf('/');
  const authority = slash >= 0 ? rest.slice(0, slash) : rest;
  const path = slash >= 0 ? rest.slice(slash + 1) : '';
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? authority.slice(0, at) : undefined;
  const hosts = at >= 0 ? authority.slice(at + 1) : authority;
  const sentinels: SentinelTarget['sentinels'] = [];
  for (const part of hosts.split(',')) {
    const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(part.trim());
    const port = Number(m?.[2]);
    if (!m || !(port > 0 && port < 65536))
      return new Error('each Sentinel must be host:port (e.g. redis+sentinel://s1:26379,s2:26379/mymaster)');
    sentinels.push({ host: m[1]!.replace(/^\[|\]$/g, ''), port });
  }
  const [name, dbText, ...extra] = path.split('/');
  if (!name || extra.length) return new Error('the path must be /<primary name>[/<db>] (e.g. /mymaster/0)');
  const db = dbText === undefined || dbText === '' ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0) return new Error('the database must be a number (e.g. /mymaster/0)');
  const target: SentinelTarget = { sentinels, name: decodeURIComponent(name), db };
  if (userinfo !== undefined) {
    const colon = userinfo.indexOf(':');
    const user = decodeURIComponent(colon >= 0 ? userinfo.slice(0, colon) : userinfo);
    if (user) target.username = user;
    if (colon >= 0) target.password = decodeURIComponent(userinfo.slice(colon + 1));
  }
  const sentinelPassword = new URLSearchParams(query).get('sentinel_password');
  if (sentinelPassword) target.sentinelPassword = sentinelPassword;
  return target;
}

/** What REDIS_URL's check says about a value: undefined when it is a usable URL. */
export function redisUrlProblem(url: string): string | undefined {
  if (isSentinelUrl(url)) {
    const t = parseSentinelUrl(url);
    return t instanceof Error ? t.message : undefined;
  }
  try {
    const u = new URL(url);
    return u.protocol === 'redis:' || u.protocol === 'rediss:'
      ? undefined
      : 'must start with redis://, rediss:// or redis+sentinel://';
  } catch {
    return 'not a URL (redis://host:6379, or redis+sentinel://host:26379,host:26379/mymaster)';
  }
}

/** Where REDIS_URL points, without passwords (for log lines and errors). */
export function redisUrlWhere(url: string): string {
  if (isSentinelUrl(url)) {
    const t = parseSentinelUrl(url);
    if (t instanceof Error) return 'REDIS_URL';
    return `sentinel ${t.name} via ${t.sentinels.map((s) => `${s.host}:${s.port}`).join(',')}${t.db ? ` db ${t.db}` : ''}`;
  }
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.length > 1 ? u.pathname : ''}`;
  } catch {
    return 'REDIS_URL';
  }
}

/** REDIS_URL's check: a redis://, rediss:// or usable redis+sentinel:// URL. */
export const redisUrlSchema = z.string().superRefine((v, ctx) => {
  const problem = redisUrlProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
