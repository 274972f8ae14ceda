/**
 * The one approved template that carries order updates (and agents' replies) once the 24-hour
 * customer-service window has closed (Meta refuses free text then). Its body has one parameter: the
 * update, on one line. Submit it in WhatsApp Manager (category Utility) in each language; the README
 * gives the English and Kiswahili texts.
 */
import type { Locale } from '../../../chat/types.js';
import { clipUtf16 } from '../../text-limits.js';
import type { WireMessage } from '../graph.js';

export interface TemplateSettings {
  name: string;
  /** Meta's language code of the template per user locale (e.g. en, en_US, sw). */
  languages: Record<Locale, string>;
}

/** A template parameter may not hold new lines, tabs or more than 4 spaces in a row. */
export const MAX_PARAMETER = 800;

/** The update on one line, as a template parameter may hold it (not clipped). */
const oneLine = (summary: string): string =>
  summary
    .replace(/[\r\n\t]+/g, ' · ')
    .replace(/ {2,}/g, ' ')
    .trim();

/** The update as one template parameter: one line, at most MAX_PARAMETER characters. */
export function templateParameter(summary: string): string {
  return clipUtf16(oneLine(summary), MAX_PARAMETER);
}

/** The template carries the whole update (nothing clipped). */
export const templateCarriesWhole = (summary: string): boolean =>
  templateParameter(summary) === oneLine(summary);

/** The template message for one update in the user's language. */
export function templateMessage(settings: TemplateSettings, locale: Locale, summary: string): WireMessage {
  return {
    type: 'template',
    template: {
      name: settings.name,
      language: { code: settings.languages[locale] },
      components: [{ type: 'body', parameters: [{ type: 'text', text: templateParameter(summary) || '-' }] }],
    },
  };
}
