/**
 * Fluent messages for every capability: loads all `locales/<lang>/*.ftl` files and renders
 * `Text` values, falling back to English and then to the message id.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FluentBundle, FluentNumber, FluentResource, type FluentVariable } from '@fluent/bundle';
import { LOCALES, type Locale, type Text } from '../chat/types.js';
import { APP_ROOT } from '../config/app-root.js';

export { formatDateTime, formatKes, formatToken, pickLocale } from './format.js';

export interface I18n {
  /** Renders a text in a locale; English when the locale lacks it, the id when no locale has it. */
  t(locale: Locale, text: Text): string;
  /** True when English (the fallback) has the message. */
  has(id: string): boolean;
  /** True when this locale has the message itself. */
  hasIn(locale: Locale, id: string): boolean;
  /** Every message id of a locale. */
  ids(locale: Locale): string[];
}

export interface LoadI18nOptions {
  /** Told the id (never the args) of a text no locale has. */
  onMissing?: (id: string, locale: Locale) => void;
}

/** Thrown at load when a .ftl file has a syntax error or repeats an id; names the file. */
export class LocaleFileError extends Error {
  override name = 'LocaleFileError';
}

export const DEFAULT_LOCALES_DIR = join(APP_ROOT, 'locales');

const ENTRY_START = /^(-?[a-zA-Z][a-zA-Z0-9_-]*)\s*=/;

/** @fluent/bundle skips broken entries silently; this finds them so a bad file fails at start. */
function checkSyntax(file: string, source: string, resource: FluentResource): void {
  const problems: string[] = [];
  const declared: string[] = [];
  source.split(/\r?\n/).forEach((line, i) => {
    // Indented lines continue an entry; `[`, `*`, `.` and `}` may start variants, attributes and closers.
    if (line === '' || /^[\s#[*.}]/.test(line)) return;
    const m = ENTRY_START.exec(line);
    if (m) declared.push(m[1]!);
    else problems.push(`line ${i + 1}: not a message, term or comment: ${line.slice(0, 60)}`);
  });
  const parsed = new Set(resource.body.map((entry) => entry.id));
  for (const id of declared) {
    if (!parsed.has(id)) problems.push(`message "${id}" has a syntax error`);
  }
  if (problems.length > 0) throw new LocaleFileError(`${file}:\n  ${problems.join('\n  ')}`);
}

/**
 * An integer argument as the bundle's NumberFormat writes it, kept per locale: ICU's formatter,
 * called a few times a second, costs tens of µs a call out of the CPU's caches, and a chat's
 * integers (counts, limits) are few. Plural selection sees a FluentNumber as before.
 */
class KeptInteger extends FluentNumber {
  constructor(
    value: number,
    private readonly kept: Map<number, string>,
  ) {
    super(value);
  }
  override toString(scope?: Parameters<FluentNumber['toString']>[0]): string {
    const known = this.kept.get(this.value);
    if (known !== undefined) return known;
    const out = super.toString(scope);
    if (scope && this.kept.size < 1_000) this.kept.set(this.value, out);
    return out;
  }
}

function withKeptIntegers(
  args: Record<string, FluentVariable>,
  kept: Map<number, string>,
): Record<string, FluentVariable> {
  let out: Record<string, FluentVariable> | undefined;
  for (const key in args) {
    const v = args[key];
    // -0 would share 0's entry (a Map key), and ICU writes it "-0": left to ICU.
    if (typeof v === 'number' && Number.isSafeInteger(v) && !Object.is(v, -0)) {
      out ??= { ...args };
      out[key] = new KeptInteger(v, kept);
    }
  }
  return out ?? args;
}

function loadBundle(dir: string, locale: Locale): { bundle: FluentBundle; ids: Set<string> } {
  const bundle = new FluentBundle(locale === 'sw' ? 'sw-KE' : 'en-KE', { useIsolating: false });
  const ids = new Set<string>();
  const langDir = join(dir, locale);
  let files: string[];
  try {
    files = readdirSync(langDir)
      .filter((f) => f.endsWith('.ftl'))
      .sort();
  } catch (cause) {
    throw new LocaleFileError(`Cannot read the locale folder ${langDir}`, { cause });
  }
  for (const file of files) {
    const path = join(langDir, file);
    const source = readFileSync(path, 'utf8');
    const resource = new FluentResource(source);
    checkSyntax(path, source, resource);
    const errors = bundle.addResource(resource);
    if (errors.length > 0) {
      throw new LocaleFileError(`${path}: ${errors.map((e) => e.message).join('; ')}`);
    }
    for (const entry of resource.body) if (!entry.id.startsWith('-')) ids.add(entry.id);
  }
  return { bundle, ids };
}

/** Loads every `<dir>/en/*.ftl` and `<dir>/sw/*.ftl`; throws LocaleFileError on a broken file. */
export function loadI18n(dir: string = DEFAULT_LOCALES_DIR, opts: LoadI18nOptions = {}): I18n {
  const loaded = Object.fromEntries(LOCALES.map((l) => [l, loadBundle(dir, l)])) as Record<
    Locale,
    { bundle: FluentBundle; ids: Set<string> }
  >;

  // A text without arguments always renders the same (the bundles never change once loaded): kept.
  const plain = Object.fromEntries(LOCALES.map((l) => [l, new Map<string, string>()])) as Record<
    Locale,
    Map<string, string>
  >;
  const integers = Object.fromEntries(LOCALES.map((l) => [l, new Map<number, string>()])) as Record<
    Locale,
    Map<number, string>
  >;
  const render = (locale: Locale, text: Text): string | undefined => {
    const noArgs = text.args === undefined || Object.keys(text.args).length === 0;
    const known = noArgs ? plain[locale].get(text.id) : undefined;
    if (known !== undefined) return known;
    const { bundle } = loaded[locale];
    const message = bundle.getMessage(text.id);
    if (!message?.value) return undefined;
    const errors: Error[] = [];
    const args = noArgs
      ? {}
      : withKeptIntegers(text.args as Record<string, FluentVariable>, integers[locale]);
    const out = bundle.formatPattern(message.value, args, errors);
    if (noArgs && errors.length === 0) plain[locale].set(text.id, out);
    return out;
  };

  return {
    t(locale, text) {
      const out = render(locale, text) ?? (locale === 'en' ? undefined : render('en', text));
      if (out !== undefined) return out;
      opts.onMissing?.(text.id, locale);
      return text.id;
    },
    has: (id) => loaded.en.ids.has(id),
    hasIn: (locale, id) => loaded[locale].ids.has(id),
    ids: (locale) => [...loaded[locale].ids],
  };
}
