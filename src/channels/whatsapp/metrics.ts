import { Counter, Gauge, type Registry } from 'prom-client';

export const CONNECTION_STATES = [
  'waiting_lease',
  'connecting',
  'open',
  'closed',
  'logged_out',
  'stopped',
] as const;
export type ConnectionState = (typeof CONNECTION_STATES)[number];

export interface WhatsAppMetrics {
  connectionState: Gauge<'number' | 'state'>;
  loggedOut: Counter<'number'>;
  reconnects: Counter<'number' | 'code'>;
  refusedSends: Counter<'number'>;
}

function getOrCreate<M>(registry: Registry, name: string, create: () => M): M {
  return (registry.getSingleMetric(name) as M | undefined) ?? create();
}

/** The channel's metrics on `registry` (reused when another channel already registered them). */
export function createWhatsAppMetrics(registry: Registry): WhatsAppMetrics {
  const registers = [registry];
  return {
    connectionState: getOrCreate(
      registry,
      'rampchat_whatsapp_connection_state',
      () =>
        new Gauge({
          name: 'rampchat_whatsapp_connection_state',
          help: 'WhatsApp connection state: 1 for the current state of each number, 0 for the others',
          labelNames: ['number', 'state'],
          registers,
        }),
    ),
    loggedOut: getOrCreate(
      registry,
      'rampchat_whatsapp_logged_out_total',
      () =>
        new Counter({
          name: 'rampchat_whatsapp_logged_out_total',
          help: 'WhatsApp sessions ended by a logout (the number must be paired again)',
          labelNames: ['number'],
          registers,
        }),
    ),
    reconnects: getOrCreate(
      registry,
      'rampchat_whatsapp_reconnects_total',
      () =>
        new Counter({
          name: 'rampchat_whatsapp_reconnects_total',
          help: 'WhatsApp reconnections scheduled, by the close status code',
          labelNames: ['number', 'code'],
          registers,
        }),
    ),
    refusedSends: getOrCreate(
      registry,
      'rampchat_whatsapp_refused_sends_total',
      () =>
        new Counter({
          name: 'rampchat_whatsapp_refused_sends_total',
          help: 'Messages not sent because the user never wrote to us first',
          labelNames: ['number'],
          registers,
        }),
    ),
  };
}
