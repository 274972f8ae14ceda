import { describe, expect, it } from 'vitest';
import { sessionSchema } from '../../src/app/flows.js';
import type { Session } from '../../src/flows/index.js';
import type { Input } from '../../src/flows/types.js';
import { ALGO_WALLET, ASSETS, Driver, offrampQuote, onrampQuote, WALLET } from './helpers.js';

/** A small deterministic PRNG so a failure can be replayed. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const pool = (session: Session): Input[] => {
  const flow = session.flow as { id?: string };
  return [
    { kind: 'command', command: 'buy', args: '' },
    { kind: 'command', command: 'buy', args: `500 usdt polygon ${WALLET} 0712345678` },
    { kind: 'command', command: 'quote', args: 'sell 2 usdt celo' },
    { kind: 'command', command: 'history', args: '' },
    { kind: 'command', command: 'settings', args: '' },
    { kind: 'command', command: 'language', args: 'sw' },
    { kind: 'command', command: 'cancel', args: '' },
    { kind: 'text', text: 'back' },
    { kind: 'text', text: 'yes' },
    { kind: 'text', text: '1000' },
    { kind: 'text', text: 'polygon' },
    { kind: 'text', text: WALLET },
    { kind: 'text', text: ALGO_WALLET },
    { kind: 'text', text: '0712345678' },
    { kind: 'text', text: 'gibberish ☕' },
    { kind: 'text', text: '' },
    { kind: 'contact', phone: '+254712345678' },
    { kind: 'button', id: `buy:confirm:${flow.id ?? 'x'}` },
    { kind: 'button', id: 'buy:tok:USDT' },
    { kind: 'button', id: 'buy:net:celo' },
    { kind: 'button', id: 'buy:wallet:saved' },
    { kind: 'button', id: 'q:dir:offramp' },
    { kind: 'button', id: 'hist:page:2' },
    { kind: 'button', id: 'set:lang:en' },
    { kind: 'button', id: 'support:open' },
    { kind: 'button', id: 'nav:back' },
    { kind: 'button', id: 'menu:main' },
    { kind: 'button', id: 'nonsense:::' },
    { kind: 'assets', assets: ASSETS },
    { kind: 'quote', quote: onrampQuote(500), purpose: 'buy' },
    { kind: 'quote', quote: onrampQuote(500, 140), purpose: 'reconfirm' },
    { kind: 'quote', quote: onrampQuote(1000), purpose: 'reconfirm' },
    { kind: 'quote', quote: offrampQuote('2'), purpose: 'quote' },
    { kind: 'onrampCreated', orderId: 'D-ri3b1-7H', idempotencyKey: `buy:${flow.id ?? 'x'}:confirm` },
    { kind: 'ownOrders', page: { orders: [], page: 1, totalPages: 0 } },
    { kind: 'effectFailed', effect: 'fetchQuote', error: { kind: 'validation', message: 'no' } },
    { kind: 'effectFailed', effect: 'createOnrampOrder', error: { kind: 'timeout' } },
    { kind: 'effectFailed', effect: 'fetchAssets', error: { kind: 'server' } },
  ];
};

/** The input that moves a buy forward, so random walks also reach Confirm and beyond. */
function forward(session: Session, random: () => number): Input {
  const flow = session.flow as { name: string; id?: string; step?: string };
  if (flow.name !== 'buy') return { kind: 'command', command: 'buy', args: '' };
  switch (flow.step) {
    case 'loading':
      return { kind: 'assets', assets: ASSETS };
    case 'amount':
      return { kind: 'text', text: '1000' };
    case 'token':
      return { kind: 'button', id: 'buy:tok:USDT' };
    case 'network':
      return { kind: 'button', id: 'buy:net:polygon' };
    case 'wallet':
      return { kind: 'text', text: WALLET };
    case 'phone':
      return { kind: 'text', text: '0712345678' };
    case 'quoting':
      return { kind: 'quote', quote: onrampQuote(1000), purpose: 'buy' };
    case 'summary':
      return { kind: 'button', id: `buy:confirm:${flow.id}` };
    case 'reconfirming':
      return { kind: 'quote', quote: onrampQuote(1000, random() < 0.5 ? 129.22 : 135), purpose: 'reconfirm' };
    case 'submitting':
      return { kind: 'onrampCreated', orderId: 'D-ri3b1-7H', idempotencyKey: `buy:${flow.id}:confirm` };
    default:
      return { kind: 'text', text: 'yes' };
  }
}

describe('any sequence of inputs', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`never throws, keeps a valid session and creates at most one order per flow (seed ${seed})`, () => {
      const random = prng(seed);
      const d = new Driver();
      for (let i = 0; i < 400; i++) {
        const inputs = pool(d.session);
        d.feed(random() < 0.6 ? forward(d.session, random) : inputs[Math.floor(random() * inputs.length)]!);
        expect(sessionSchema.safeParse(d.session).success).toBe(true);
      }
      const keys = d.allEffects('createOnrampOrder').map((e) => e.idempotencyKey);
      expect(keys.length).toBeGreaterThan(0);
      expect(new Set(keys).size).toBe(keys.length);
    });
  }
});
