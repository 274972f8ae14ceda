/** The standing buys flow's persisted state (the draft of a new plan) and the steps every part of it takes. */
import * as z from 'zod';
import type { Button, Text } from '../chat/types.js';
import { NETWORKS } from '../domain/types.js';
import type { FlowStep } from '../flows/flow.js';
import { at as flowAt, navRow, send } from '../flows/flow.js';
import type { Session } from '../flows/session.js';
import type { Effect } from '../flows/types.js';
import { NAIROBI_OFFSET_MS } from './schedule.js';

/** What a new plan has so far. */
export const draftSchema = z.object({
  amountKes: z.number().int().positive(),
  cadence: z.string().max(8),
  token: z.string().max(20).optional(),
  network: z.enum(NETWORKS).optional(),
  wallet: z.string().max(80).optional(),
  phone: z.string().max(16).optional(),
  /** The words not yet read (token, network, wallet), until the listed assets came. */
  words: z.string().max(300).optional(),
});
export type Draft = z.infer<typeof draftSchema>;

export const savingsStateSchema = z.object({
  name: z.literal('savings'),
  step: z.enum(['assets', 'network', 'wallet', 'phone', 'confirm', 'waiting', 'paying', 'change']),
  draft: draftSchema.optional(),
  /** Pay / change: the plan and run at hand. */
  planId: z.string().max(24).optional(),
  runId: z.string().max(12).optional(),
  tokens: z
    .array(z.object({ symbol: z.string(), network: z.enum(NETWORKS) }))
    .max(60)
    .optional(),
});
export type SavingsState = z.infer<typeof savingsStateSchema>;

export const at = flowAt<SavingsState>;
export const ask = (
  session: Session,
  state: SavingsState,
  texts: Text[],
  buttons: Button[][] = [navRow(false)],
) => at(session, state, [send(texts, { buttons })]);
export const request = (
  session: Session,
  state: SavingsState,
  r: Extract<Effect, { type: 'savings' }>['request'],
) =>
  at(session, { ...state, step: state.step === 'paying' ? 'paying' : 'waiting' }, [
    { type: 'savings', request: r },
  ]);
export const exit = (session: Session, texts: Text[]): FlowStep => ({ session, effects: [], exit: texts });

/** The user's weekday in Nairobi (1 Monday … 7 Sunday): "weekly" alone means this day. */
export const weekdayOf = (now: number) => new Date(now + NAIROBI_OFFSET_MS).getUTCDay() || 7;
