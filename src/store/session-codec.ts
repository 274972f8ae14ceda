/**
 * Turns a stored session into a validated one and back. The long-lived keys (version, locale,
 * profile) go to `base`, everything else to `flow`. A missing flow part (expired) is not an error:
 * the user keeps locale and profile and starts from the initial flow state. Corrupt or outdated
 * state is reset to the initial session, keeping locale and profile where they still validate.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Locale } from '../chat/types.js';
import type { SessionBase } from '../flows/types.js';
import type { SessionParts, StoredSession } from './types.js';

export interface SessionHints {
  phone?: string;
  locale?: Locale;
}

interface Schema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

/** What the store needs to know about the flows' session (in production: `SESSION_VERSION`, `sessionSchema`, `initialSession`). */
export interface SessionModel<S extends SessionBase> {
  version: number;
  schema: Schema<S>;
  initial(hints?: SessionHints): S;
  /**
   * The schema cut along the stored parts (`v`, `locale`, `profile`; the rest), when it can be:
   * each part's text is then validated once (see `knownPart`).
   */
  parts?: { base: Schema<unknown>; flow: Schema<unknown> };
}

export interface DecodedSession<S> {
  session: S;
  /** True when stored state was corrupt or outdated and had to be reset. */
  reset: boolean;
  /** Why, for the log. */
  resetReason?: string;
}

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
  const { v, locale, profile, ...flow } = session;
  return { base: JSON.stringify({ v, locale, profile }), flow: JSON.stringify(flow) };
}

/** Validates a stored session, or resets it (see the module comment). Never throws for bad data. */
export function decodeSession<S extends SessionBase>(
  model: SessionModel<S>,
  stored: StoredSession,
  hints?: SessionHints,
): DecodedSession<S> {
  if (stored.base === undefined) return { session: model.initial(hints), reset: false };
  if (model.parts && stored.flow !== undefined) {
    const base = knownPart(model.parts.base, stored.base);
    const flow = base && knownPart(model.parts.flow, stored.flow);
    // Object.assign: Node 20's V8 builds `{ ...a, ...b }` on a slow path (2 µs against 0.05).
    if (flow) return { session: Object.assign({}, flow, base) as unknown as S, reset: false };
    // A part the schema refuses: the whole session is looked at below, to reset it with its reason.
  }

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

/**
 * Stored part texts a schema accepted, with what it made of them. On a machine doing other work a
 * session's first zod pass in an update costs 60 to 80 µs (the schema's code and data have left
 * the CPU's caches since the last update), a `JSON.parse` a few. Validation is a pure function of
 * the text, so a text seen before (the user's unchanged profile, a step such as the menu) is
 * answered from the earlier result, as a new object.
 */
const known = new WeakMap<object, Map<string, string>>();
/** About a replica's active users; a text longer than the limit is validated each time. */
const KNOWN_PER_SCHEMA = 1000;
const KNOWN_TEXT_MAX = 2048;

function knownPart(schema: Schema<unknown>, text: string): Record<string, unknown> | undefined {
  let texts = known.get(schema);
  if (!texts) {
    texts = new Map();
    known.set(schema, texts);
  }
  const json = texts.get(text);
  if (json !== undefined) {
    texts.delete(text);
    texts.set(text, json);
    return JSON.parse(json) as Record<string, unknown>;
  }
  const value = parseObject(text);
  const parsed = value && schema.safeParse(value);
  if (!parsed?.success || !isObject(parsed.data)) return undefined;
  const out = JSON.stringify(parsed.data);
  // Only a result that JSON carries whole (no undefined, no Date) can be handed out again from text.
  if (text.length <= KNOWN_TEXT_MAX && isDeepStrictEqual(JSON.parse(out), parsed.data)) {
    if (texts.size >= KNOWN_PER_SCHEMA) texts.delete(texts.keys().next().value as string);
    // Mostly the text itself: kept once, not twice.
    texts.set(text, out === text ? text : out);
  }
  return parsed.data;
}
