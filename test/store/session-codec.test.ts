/**
 * The session codec validates each stored part's text once: the same text again is answered from
 * what the schema made of it, as a new object; a part the schema refused is refused every time,
 * and the whole session then reset with its reason, as before.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appFlows } from '../../src/app/flows.js';
import type { Session } from '../../src/flows/session.js';
import { decodeSession, encodeSession, type SessionModel } from '../../src/store/session-codec.js';

const baseSchema = z.object({
  v: z.literal(1),
  locale: z.enum(['en', 'sw']),
  profile: z.object({ wallets: z.record(z.string(), z.string()) }),
});
type Counter = z.infer<typeof baseSchema> & { count: number; at?: Date };

/** A model whose schemas count their passes; `flow` validates the non-base keys. */
function counted(flow: z.ZodObject = z.object({ count: z.number().int() })) {
  const passes = { whole: 0, base: 0, flow: 0 };
  const counting = <T>(name: keyof typeof passes, schema: z.ZodType<T>) => ({
    safeParse: (value: unknown) => {
      passes[name]++;
      return schema.safeParse(value) as { success: true; data: T } | { success: false };
    },
  });
  const model: SessionModel<Counter> = {
    version: 1,
    schema: counting('whole', baseSchema.extend(flow.shape) as unknown as z.ZodType<Counter>),
    parts: { base: counting('base', baseSchema), flow: counting('flow', flow) },
    initial: () => ({ v: 1, locale: 'en', profile: { wallets: {} }, count: 0 }),
  };
  return { model, passes };
}

const base = { v: 1, locale: 'en', profile: { wallets: {} } } as const;
const stored = (flow: object, b: object = base) => ({
  rev: 1,
  base: JSON.stringify(b),
  flow: JSON.stringify(flow),
});

describe('session codec: each part text is validated once', () => {
  it('answers a text seen before without the schema, as a new object each time', () => {
    const { model, passes } = counted();
    const first = decodeSession(model, stored({ count: 3 }));
    const second = decodeSession(model, stored({ count: 3 }));
    expect(passes).toEqual({ whole: 0, base: 1, flow: 1 });
    expect(second).toEqual({ session: { ...base, count: 3 }, reset: false });
    expect(second.session).not.toBe(first.session);
    second.session.profile.wallets.polygon = '0xabc';
    expect(decodeSession(model, stored({ count: 3 })).session.profile.wallets).toEqual({});
    // A new step with the same profile: only the new part is validated.
    expect(decodeSession(model, stored({ count: 4 })).session).toEqual({ ...base, count: 4 });
    expect(passes).toEqual({ whole: 0, base: 1, flow: 2 });
  });

  it('refuses a part the schema refused every time, resetting with the reason as before', () => {
    const { model, passes } = counted();
    for (let i = 0; i < 3; i++) {
      const out = decodeSession(model, stored({ count: 1.5 }));
      expect(out).toMatchObject({ reset: true, resetReason: 'session does not match the schema' });
      expect(out.session).toEqual({ ...base, count: 0 });
    }
    expect(passes.flow).toBe(3);
    const old = decodeSession(model, stored({ count: 1 }, { ...base, v: 0 }));
    expect(old).toMatchObject({ reset: true, resetReason: 'version 0 is not 1' });
  });

  it('hands out what the schema made of the text (unknown keys dropped), not the text', () => {
    const { model, passes } = counted();
    for (let i = 0; i < 2; i++)
      expect(decodeSession(model, stored({ count: 2, stale: 'dropped' })).session).toEqual({
        ...base,
        count: 2,
      });
    expect(passes.flow).toBe(1);
  });

  it('validates a long part text every time, and keeps at most 1,000 texts a schema', () => {
    const { model, passes } = counted(z.object({ count: z.number(), note: z.string() }));
    const long = stored({ count: 1, note: 'x'.repeat(3000) });
    decodeSession(model, long);
    decodeSession(model, long);
    expect(passes.flow).toBe(2);
    for (let i = 0; i < 1001; i++) decodeSession(model, stored({ count: i, note: '' }));
    expect(passes.flow).toBe(2 + 1001);
    // The oldest text was let go, the newest is still known.
    decodeSession(model, stored({ count: 1000, note: '' }));
    expect(passes.flow).toBe(2 + 1001);
    decodeSession(model, stored({ count: 0, note: '' }));
    expect(passes.flow).toBe(2 + 1001 + 1);
  });

  it('runs the schema every time when its result does not survive JSON (a Date)', () => {
    const { model, passes } = counted(
      z.object({ count: z.number(), at: z.string().transform((s) => new Date(s)) }),
    );
    const text = { count: 1, at: '2026-11-29T08:00:00Z' };
    const a = decodeSession(model, stored(text));
    const b = decodeSession(model, stored(text));
    expect(b.session.at).toBeInstanceOf(Date);
    expect(b.session.at).not.toBe(a.session.at);
    expect(passes.flow).toBe(2);
  });

  it('gives the production sessions exactly what the whole schema gives', () => {
    const wallet = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
    const sessions: Session[] = [
      { ...appFlows.initial(), profile: { wallets: { polygon: wallet }, welcomed: true } },
      {
        ...appFlows.initial({ phone: '0712345678', locale: 'sw' }),
        flow: { name: 'settings', step: 'language' },
      },
    ];
    // The production model carries the cut schema; wrapped here so that this test's texts are new to
    // the codec whatever other test files in this worker decoded before.
    const parts = appFlows.parts;
    if (!parts) throw new Error('the production flows give the store no part schemas');
    let flowPasses = 0;
    const model: typeof appFlows = {
      ...appFlows,
      parts: {
        base: { safeParse: (v: unknown) => parts.base.safeParse(v) },
        flow: {
          safeParse: (v: unknown) => {
            flowPasses++;
            return parts.flow.safeParse(v);
          },
        },
      },
    };
    for (const session of sessions) {
      const stored = { rev: 1, ...encodeSession(session) };
      const whole = appFlows.schema.safeParse({ ...JSON.parse(stored.flow), ...JSON.parse(stored.base) });
      if (!whole.success) throw new Error('the whole schema refused a valid session');
      for (let i = 0; i < 2; i++)
        expect(decodeSession(model, stored)).toEqual({ session: whole.data, reset: false });
    }
    expect(flowPasses).toBe(sessions.length);
  });
});
