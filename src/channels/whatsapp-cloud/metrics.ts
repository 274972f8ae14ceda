/** Prometheus metrics of the Cloud API transport. */
import { Counter, type Registry } from 'prom-client';

export interface CloudMetrics {
  /** Messages Meta accepted, by kind: text, interactive, template. */
  sent: Counter<'kind'>;
  /** Failed Graph API calls, by remedy (retry, window, recipient, fatal). */
  failed: Counter<'remedy'>;
  /** Messages that could not reach the user at all (a support case opens for order updates). */
  undeliverable: Counter<'notice'>;
  /** Webhook posts refused: bad signature (401) or malformed body (400). */
  refused: Counter<'reason'>;
}

function counter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: L[],
): Counter<L> {
  return (
    (registry.getSingleMetric(name) as Counter<L> | undefined) ??
    new Counter({ name, help, labelNames, registers: [registry] })
  );
}

/** The metrics on `registry` (reused when already registered). */
export function createCloudMetrics(registry: Registry): CloudMetrics {
  return {
    sent: counter(registry, 'rampchat_whatsapp_cloud_sent_total', 'WhatsApp Cloud API messages sent', [
      'kind',
    ]),
    failed: counter(
      registry,
      'rampchat_whatsapp_cloud_failed_calls_total',
      'WhatsApp Cloud API calls that failed, by what was done about it',
      ['remedy'],
    ),
    undeliverable: counter(
      registry,
      'rampchat_whatsapp_cloud_undeliverable_total',
      'WhatsApp messages that could not reach the user (notice=true: handed to support)',
      ['notice'],
    ),
    refused: counter(
      registry,
      'rampchat_whatsapp_cloud_webhook_refused_total',
      'WhatsApp webhook posts refused',
      ['reason'],
    ),
  };
}
