/**
 * Turns a stored session into a validated one and back. The long-lived keys (version, locale,
 * profile) go to `base`, everything else to `flow`. A missing flow part (expired) is not an error:
 * the user keeps locale and profile and starts from the initial flow state. Corrupt or outdated
 * state is reset to the initial session, keeping locale and profile where they still validate.
 */
import type { Locale } from '../chat/types.js';
import type { SessionBase } from '../flows/types.js';
import type { SessionParts, StoredSession } from './types.js';

export interface SessionHints {
  phone?: string;
  locale?: Locale;
}

/** What the store needs to know about the flows' session (in production: `SESSION_VERSION`, `sessionSchema`, `initialSession`). */
export interface SessionModel<S extends SessionBase> {
  version: number;
  schema: { safeParse(value: unknown): { success: true; data: S } | { success: false } };
  initial(hints?: SessionHints): S;
}

export interface DecodedSession<S> {
  session: S;
  /** True when stored state was corrupt or outdated and had to be reset. */
  reset: boolean;
  /** Why, for the log. */
  resetReason?: string;
}

const BASE_KEYS = ['v', 'locale', 'profile'] as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Splits a session into its stored parts. */
export function encodeSession<S extends SessionBase>(session: S): SessionParts {
  const base: Record<string, unknown> = {};
  const flow: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(session)) {
    if ((BASE_KEYS as readonly string[]).includes(k)) base[k] = v;
    else flow[k] = v;
  }
  return { base: JSON.stringify(base), flow: JSON.stringify(flow) };
}

/** Validates a stored session, or resets it (see the module comment). Never throws for bad data. */
export function decodeSession<S extends SessionBase>(
  model: SessionModel<S>,
  stored: StoredSession,
  hints?: SessionHints,
): DecodedSession<S> {
  if (stored.base === undefined) return { session: model.initial(hints), reset: false };

  const base = parseObject(stored.base);
  if (!base) return salvage(model, undefined, hints, 'base part is not a JSON object');

  let candidate: Record<string, unknown>;
  if (stored.flow === undefined) {
    candidate = { ...model.initial(hints), ...base };
  } else {
    const flow = parseObject(stored.flow);
    if (!flow) return salvage(model, base, hints, 'flow part is not a JSON object');
    candidate = { ...flow, ...base };
  }
  if (candidate.v !== model.version)
    return salvage(model, base, hints, `version ${String(candidate.v)} is not ${model.version}`);
  const parsed = model.schema.safeParse(candidate);
  if (!parsed.success) return salvage(model, base, hints, 'session does not match the schema');
  return { session: parsed.data, reset: false };
}

function salvage<S extends SessionBase>(
  model: SessionModel<S>,
  base: Record<string, unknown> | undefined,
  hints: SessionHints | undefined,
  reason: string,
): DecodedSession<S> {
  const fresh = model.initial(hints);
  const tries: Record<string, unknown>[] = base
    ? [{ locale: base.locale, profile: base.profile }, { profile: base.profile }, { locale: base.locale }]
    : [];
  for (const keep of tries) {
    const parsed = model.schema.safeParse({ ...fresh, ...keep });
    if (parsed.success) return { session: parsed.data, reset: true, resetReason: reason };
  }
  return { session: fresh, reset: true, resetReason: reason };
}
