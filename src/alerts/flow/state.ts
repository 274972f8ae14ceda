/**
 * The rate alerts flow's persisted state and its button ids, which the store and the ticker's
 * messages share with the flow.
 */
import * as z from 'zod';
import type { Network } from '../../domain/types.js';
import { at as flowAt } from '../../flows/flow.js';
import { networkSchema, tokenInfoSchema } from '../../flows/schemas.js';

/** The most alerts one user may have. */
export const MAX_ALERTS = 10;

export const sideSchema = z.enum(['below', 'above']);
const viewSchema = z.object({
  slot: z.number().int().min(1).max(MAX_ALERTS),
  token: z.string().min(1).max(16),
  network: networkSchema,
  side: sideSchema,
  level: z.number().positive(),
  expiresAt: z.number(),
});

export const alertsStateSchema = z.object({
  name: z.literal('alerts'),
  step: z.enum(['loading', 'token', 'network', 'side', 'level', 'saving', 'listing', 'shown']),
  token: z.string().max(16).optional(),
  network: networkSchema.optional(),
  side: sideSchema.optional(),
  level: z.number().positive().optional(),
  /** Changing this alert (its slot) rather than adding one. */
  slot: z.number().int().min(1).max(MAX_ALERTS).optional(),
  assets: z.array(tokenInfoSchema).optional(),
  /** The alerts as last listed, for the buttons that pick one. */
  listed: z.array(viewSchema).max(MAX_ALERTS).optional(),
});
export type AlertsState = z.infer<typeof alertsStateSchema>;

/** Button ids: a new alert (optionally `al:new:<side>:<token>:<network>` from a price), the list, one alert's actions. */
export const ALERTS_LIST = 'al:list';
/** "Buy now" under a fired alert: the buy flow with token and network known asks only what is missing. */
export const buyNowButtonId = (token: string, network: Network): string => `menu:buy:${token} ${network}`;

export const at = flowAt<AlertsState>;
