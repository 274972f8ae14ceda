/** Drives the pure transition like the engine would, with fake ramp answers shaped like the reference bodies. */

import { FLOW_DEFS, transition } from '../../src/app/flows.js';
import type { OutMessage, Text } from '../../src/chat/types.js';
import { roundDecimal } from '../../src/domain/decimal.js';
import type { ListedAssets, Network, Quote, TokenInfo } from '../../src/domain/types.js';
import { createTransition, initialSession, type Session } from '../../src/flows/index.js';
import type { Effect, FlowContext, Input, Transition } from '../../src/flows/types.js';
import { loadI18n } from '../../src/i18n/index.js';

/** Every text id any driver saw, for the i18n coverage check. */
export const seenTextIds = new Set<string>();

const CORE_PREFIXES = /^(core|buy|quote|settings|history|help)-/;

/** One emitted Text per id and argument names, to render in both languages. */
const seenTexts = new Map<string, Text>();

/**
 * Problems with this capability's texts that drivers emitted: an id en or sw lacks, or a
 * rendering that left a placeholder unfilled (an argument name the code and the .ftl disagree on).
 */
export function missingCoreTexts(): string[] {
  const i18n = loadI18n();
  const problems = [...seenTextIds].filter(
    (id) => CORE_PREFIXES.test(id) && (!i18n.hasIn('en', id) || !i18n.hasIn('sw', id)),
  );
  for (const t of seenTexts.values()) {
    if (!CORE_PREFIXES.test(t.id)) continue;
    for (const locale of ['en', 'sw'] as const) {
      const out = i18n.t(locale, t);
      if (/\{\s*\$|\{\$/.test(out)) problems.push(`${locale}:${t.id} -> ${out}`);
    }
  }
  return problems;
}

/** The core flows only, whatever other capabilities added to FLOW_DEFS. */
export const CORE_FLOWS = FLOW_DEFS.filter((d) =>
  ['menu', 'buy', 'quote', 'history', 'help', 'settings'].includes(d.name),
);
export const coreTransition = createTransition(CORE_FLOWS);

const t = (network: Network, symbol: string, decimals: number, address: string): TokenInfo => ({
  network,
  symbol,
  name: symbol,
  decimals,
  address,
});
const NATIVE = '0x0000000000000000000000000000000000000000';

/** The current listed-assets body (reference §6), as the ramp client normalises it. */
export const ASSETS: ListedAssets = {
  networks: ['lisk', 'celo', 'base', 'polygon', 'scroll'],
  fiat: ['KES', 'USD'],
  tokens: [
    t('lisk', 'USDT', 6, '0x05D032ac25d322df992303dCa074EE7392C117b9'),
    t('lisk', 'ETH', 18, NATIVE),
    t('celo', 'USDT', 6, '0x48065fbBE25f71C9282ddf5e1cD6D6A887483D5e'),
    t('celo', 'cKES', 18, '0x456a3D042C0DbD3db53D5489e98dFb038553B0d0'),
    t('celo', 'USDC', 6, '0xcebA9300f2b948710d2653dD7B07f33A8B32118C'),
    t('celo', 'CELO', 18, '0x471EcE3750Da237f93B8E339c536989b8978a438'),
    t('base', 'USDC', 6, '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'),
    t('base', 'ETH', 18, NATIVE),
    t('polygon', 'USDT', 6, '0xc2132D05D31c914a87C6611C10748AEb04B58e8F'),
    t('polygon', 'USDC', 6, '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174'),
    t('polygon', 'MATIC', 18, NATIVE),
    t('scroll', 'USDT', 6, '0xf55BEC9cafDbE8730f096Aa55dad6D22d44099Df'),
    t('scroll', 'ETH', 18, NATIVE),
  ],
};

/** M-Pesa B2C fee tiers (reference §4), enough for the amounts in tests. */
export function b2cFee(kes: number): number {
  if (kes <= 100) return 1;
  if (kes <= 1500) return 6;
  if (kes <= 5000) return 11;
  if (kes <= 10000) return 13;
  return 16;
}

/** An on-ramp quote as the reference body: output = KES × (1/rate), fee added on top in KES. */
export function onrampQuote(
  amountKes: number,
  rate = 129.22,
  network: Network = 'polygon',
  token = 'USDT',
): Quote {
  const feeKes = b2cFee(amountKes);
  return {
    type: 'onramp',
    network,
    inputAmount: String(amountKes),
    inputCurrency: 'KES',
    outputAmount: String(amountKes * (1 / rate)),
    outputCurrency: token,
    exchangeRate: rate,
    fee: { amount: roundDecimal(feeKes / rate, 6)!, kes: feeKes },
    estimatedOutputKes: amountKes + feeKes,
    limits: { min: 1, max: 10000, currency: 'KES' },
    receivedAt: '2025-07-10T12:00:00.000Z',
  };
}

/** An off-ramp quote as the reference body: gross = tokens × rate, the KES fee deducted. */
export function offrampQuote(
  tokens: string,
  rate = 129.45,
  network: Network = 'celo',
  token = 'USDT',
): Quote {
  const gross = Number(tokens) * rate;
  const feeKes = b2cFee(gross);
  return {
    type: 'offramp',
    network,
    inputAmount: tokens,
    inputCurrency: token,
    outputAmount: gross.toFixed(4),
    outputCurrency: 'KES',
    exchangeRate: rate,
    fee: { amount: (feeKes / rate).toFixed(6), currency: token, kes: feeKes },
    estimatedOutputKes: Math.round((gross - feeKes) * 100) / 100,
    limits: { min: 10, max: 30000, currency: 'KES' },
    receivedAt: '2025-07-10T12:00:00.000Z',
  };
}

export const WALLET_LOWER = '0x742d35cc6634c0532925a3b844bc454e4438f44e';
export const WALLET = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
/** The same address with two letters' case flipped: a wrong EIP-55 checksum. */
export const WALLET_BAD_CHECKSUM = '0x742D35Cc6634C0532925a3b844Bc454e4438f44E';
export const ALGO_WALLET = 'XEI2YQ47YAEDJEOYE3KQTYJNRCA2G2TO7U4STRYMOOXAZMIHRQ7HEEPGOE';

export interface Output {
  effects: Effect[];
  sends: OutMessage[];
  /** Text ids of all sends, in order, with button label ids. */
  ids: string[];
  buttonIds: string[];
}

/** A conversation under test: feed inputs, read what came out, inspect the session. */
export class Driver {
  session: Session;
  now = 1_752_150_000_000;
  readonly user = { channel: 'terminal' as const, id: 'tester' };
  rateTolerancePct = 1;
  readonly history: Output[] = [];

  constructor(
    session: Session = initialSession(),
    private readonly step: Transition<Session> = transition,
  ) {
    this.session = session;
  }

  get ctx(): FlowContext {
    return {
      now: this.now,
      user: this.user,
      config: { rateTolerancePct: this.rateTolerancePct, project: 'test' },
    };
  }

  /** The active flow's state (`id` where the flow has one). */
  get flow(): Session['flow'] & { id?: string } {
    return this.session.flow;
  }

  /** The current flow's `step` field, when it has one. */
  get at(): string | undefined {
    return (this.session.flow as { step?: string }).step;
  }

  feed(input: Input): Output {
    this.now += 1000;
    const { state, effects } = this.step(this.session, input, this.ctx);
    this.session = JSON.parse(JSON.stringify(state));
    const sends = effects.flatMap((e) => (e.type === 'send' ? [e.message] : []));
    const ids: string[] = [];
    const buttonIds: string[] = [];
    const remember = (x: Text) => seenTexts.set(`${x.id}:${Object.keys(x.args ?? {}).sort()}`, x);
    for (const m of sends) {
      for (const x of m.texts) {
        ids.push(x.id);
        remember(x);
      }
      for (const b of (m.buttons ?? []).flat()) {
        ids.push(b.label.id);
        remember(b.label);
        buttonIds.push(b.id);
      }
    }
    for (const id of ids) seenTextIds.add(id);
    const out = { effects, sends, ids, buttonIds };
    this.history.push(out);
    return out;
  }

  text = (text: string) => this.feed({ kind: 'text', text });
  command = (command: string, args = '') => this.feed({ kind: 'command', command, args });
  button = (id: string) => this.feed({ kind: 'button', id });
  contact = (phone: string) => this.feed({ kind: 'contact', phone });
  assets = (assets: ListedAssets = ASSETS) => this.feed({ kind: 'assets', assets });
  quote = (quote: Quote, purpose: string) => this.feed({ kind: 'quote', quote, purpose });

  /** Every effect of a type emitted so far. */
  allEffects<T extends Effect['type']>(type: T): Extract<Effect, { type: T }>[] {
    return this.history.flatMap((o) =>
      o.effects.filter((e): e is Extract<Effect, { type: T }> => e.type === type),
    );
  }
}

/** The single non-send effect of an output (fails the test when there is not exactly one). */
export function onlyEffect(out: Output): Effect {
  const effects = out.effects.filter((e) => e.type !== 'send');
  if (effects.length !== 1) throw new Error(`expected one effect, got ${JSON.stringify(effects)}`);
  return effects[0]!;
}

/** A text of a given id among the output's sends. */
export function textOf(out: Output, id: string): Text | undefined {
  return out.sends.flatMap((m) => m.texts).find((x) => x.id === id);
}
