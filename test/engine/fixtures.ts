/**
 * Test doubles for the engine and store tests: a tiny flow (the real flows are tested on their own)
 * and a recording channel.
 */
import { z } from 'zod';
import type { ChannelAdapter } from '../../src/channels/types.js';
import type { Locale, OutMessage } from '../../src/chat/types.js';
import type { FlowModule } from '../../src/engine/engine.js';
import type { Effect, Input, Step } from '../../src/flows/types.js';

export const counterSchema = z.object({
  v: z.literal(1),
  locale: z.enum(['en', 'sw']),
  profile: z.object({ phone: z.string().optional(), wallets: z.record(z.string(), z.string()) }),
  count: z.number().int(),
  step: z.enum(['idle', 'submitting', 'created']),
  seen: z.array(z.string()),
});
export type CounterSession = z.infer<typeof counterSchema>;

const say = (id: string, args?: Record<string, string | number>): Effect => ({
  type: 'send',
  message: { texts: [{ id, args }] },
});

/**
 * `inc` counts; `quote` fetches a quote; `confirm` (button) creates one order; `/lang sw` switches
 * language; `/phone X` saves a phone; `loop` asks for the custom `echo` effect forever; `boom` throws.
 */
export function counterTransition(s: CounterSession, input: Input): Step<CounterSession> {
  const seen = [...s.seen, input.kind === 'text' ? input.text : input.kind];
  const next = { ...s, seen };
  switch (input.kind) {
    case 'text':
      if (input.text === 'inc') return { state: { ...next, count: s.count + 1 }, effects: [] };
      if (input.text === 'quote')
        return {
          state: next,
          effects: [
            say('t-asking'),
            {
              type: 'fetchQuote',
              purpose: 'buy',
              request: {
                type: 'onramp',
                network: 'polygon',
                token: 'USDT',
                fiatCurrency: 'KES',
                amount: '500',
              },
            },
            say('t-after-fetch'),
          ],
        };
      if (input.text === 'loop')
        return { state: next, effects: [{ type: 'echo', text: 'loop' } as unknown as Effect] };
      if (input.text === 'boom') throw new Error('flow bug');
      if (input.text === 'menu')
        return {
          state: next,
          effects: [
            {
              type: 'send',
              message: {
                texts: [{ id: 't-pick' }],
                buttons: [
                  [
                    { id: 'confirm', label: { id: 't-confirm' } },
                    { id: 'docs', label: { id: 't-docs' }, url: 'https://example.org/docs' },
                  ],
                  [{ id: 'cancel', label: { id: 't-cancel' } }],
                ],
              },
            },
          ],
        };
      return { state: next, effects: [say('t-echo', { text: input.text })] };
    case 'command':
      if (input.command === 'lang')
        return { state: { ...next, locale: input.args as Locale }, effects: [say('t-lang')] };
      if (input.command === 'phone')
        return { state: { ...next, profile: { ...s.profile, phone: input.args } }, effects: [] };
      return { state: next, effects: [] };
    case 'button':
      if (input.id === 'cancel') return { state: next, effects: [say('t-cancelled')] };
      if (input.id !== 'confirm' || s.step !== 'idle') return { state: next, effects: [] };
      return {
        state: { ...next, step: 'submitting' },
        effects: [
          {
            type: 'createOnrampOrder',
            idempotencyKey: `k-${s.count}`,
            request: { phone: '254712345678', amountKes: 500, userAddress: '0xabc', tokenAddress: '0xdef' },
            track: {
              side: 'onramp',
              user: { channel: 'terminal', id: 'u' },
              network: 'polygon',
              walletAddress: '0xabc',
              token: { symbol: 'USDT', address: '0xdef', decimals: 6 },
              amountKes: 500,
              phone: '254712345678',
            },
          },
        ],
      };
    case 'quote':
      return { state: next, effects: [say('t-quote', { rate: input.quote.exchangeRate })] };
    case 'onrampCreated':
      return { state: { ...next, step: 'created' }, effects: [say('t-created', { orderId: input.orderId })] };
    case 'effectFailed':
      return {
        state: { ...next, step: 'idle' },
        effects: [say('t-failed', { kind: input.error.kind, purpose: input.purpose ?? '-' })],
      };
    default:
      return { state: next, effects: [] };
  }
}

export const counterFlow: FlowModule<CounterSession> = {
  version: 1,
  schema: counterSchema,
  initial: (hints) => ({
    v: 1,
    locale: hints?.locale ?? 'en',
    profile: { wallets: {}, ...(hints?.phone ? { phone: hints.phone } : {}) },
    count: 0,
    step: 'idle',
    seen: [],
  }),
  transition: counterTransition,
};

export interface Sent {
  userId: string;
  message: OutMessage;
  locale: Locale;
}

/** A channel that records what it was asked to send. */
export function recordingChannel(
  name: ChannelAdapter['name'] = 'terminal',
): ChannelAdapter & { sent: Sent[]; ids(): string[] } {
  const sent: Sent[] = [];
  return {
    name,
    capabilities: { editMessages: false, buttons: false },
    sent,
    ids: () => sent.flatMap((s) => s.message.texts.map((t) => t.id)),
    async send(userId, message, locale) {
      sent.push({ userId, message, locale });
    },
  };
}
