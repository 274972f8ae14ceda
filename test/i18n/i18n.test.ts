import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_LOCALES_DIR,
  formatDateTime,
  formatKes,
  formatToken,
  LocaleFileError,
  loadI18n,
  pickLocale,
} from '../../src/i18n/index.js';

const MY_FILES = ['core', 'buy', 'quote', 'settings', 'history', 'help'];

const tmpDirs: string[] = [];
function localesDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rampchat-locales-'));
  tmpDirs.push(dir);
  for (const lang of ['en', 'sw']) mkdirSync(join(dir, lang));
  for (const [path, body] of Object.entries(files)) writeFileSync(join(dir, path), body);
  return dir;
}
afterEach(() => {
  for (const d of tmpDirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('loadI18n', () => {
  it('renders in the locale, falls back to English, then to the id', () => {
    const missing: string[] = [];
    const i18n = loadI18n(
      localesDir({
        'en/a.ftl': 'a-hello = Hello { $name }\na-only-en = English only\n',
        'sw/a.ftl': 'a-hello = Habari { $name }\n',
      }),
      { onMissing: (id) => missing.push(id) },
    );
    expect(i18n.t('sw', { id: 'a-hello', args: { name: 'Wanjiru' } })).toBe('Habari Wanjiru');
    expect(i18n.t('en', { id: 'a-hello', args: { name: 'Wanjiru' } })).toBe('Hello Wanjiru');
    expect(i18n.t('sw', { id: 'a-only-en' })).toBe('English only');
    expect(i18n.t('sw', { id: 'a-nowhere' })).toBe('a-nowhere');
    expect(missing).toEqual(['a-nowhere']);
    expect(i18n.has('a-only-en')).toBe(true);
    expect(i18n.hasIn('sw', 'a-only-en')).toBe(false);
  });

  it('loads every .ftl file of each language, whoever wrote it', () => {
    const i18n = loadI18n(
      localesDir({ 'en/x.ftl': 'x-a = A\n', 'en/y.ftl': 'y-b = B\n', 'sw/x.ftl': 'x-a = A\n' }),
    );
    expect(i18n.ids('en').sort()).toEqual(['x-a', 'y-b']);
  });

  it('writes an integer as the locale NumberFormat does, asking ICU once per value', () => {
    const i18n = loadI18n(
      localesDir({
        'en/n.ftl':
          'n-plain = { $n }\nn-items = { $n ->\n    [one] one item\n   *[other] { $n } items\n}\nn-fixed = { NUMBER($n, minimumFractionDigits: 2) }\n',
        'sw/n.ftl': 'n-plain = { $n }\n',
      }),
    );
    for (const [locale, tag] of [
      ['en', 'en-KE'],
      ['sw', 'sw-KE'],
    ] as const) {
      const nf = new Intl.NumberFormat(tag);
      for (const n of [-0, 0, 1, 7, 999, 1000, 12_345, -42, 1_000_000])
        for (let again = 0; again < 2; again++)
          expect(i18n.t(locale, { id: 'n-plain', args: { n } })).toBe(nf.format(n));
    }
    // Plural categories and NUMBER()'s options still apply to a kept integer.
    for (let again = 0; again < 2; again++) {
      expect(i18n.t('en', { id: 'n-items', args: { n: 1 } })).toBe('one item');
      expect(i18n.t('en', { id: 'n-items', args: { n: 3 } })).toBe('3 items');
      expect(i18n.t('en', { id: 'n-fixed', args: { n: 3 } })).toBe('3.00');
    }
    expect(i18n.t('en', { id: 'n-plain', args: { n: 2.5 } })).toBe('2.5');
    const format = vi.spyOn(Intl.NumberFormat.prototype as { format: unknown }, 'format', 'get');
    try {
      expect(i18n.t('en', { id: 'n-plain', args: { n: 12_345 } })).toBe('12,345');
      expect(format).not.toHaveBeenCalled();
      expect(i18n.t('en', { id: 'n-plain', args: { n: 54_321 } })).toBe('54,321');
      expect(format).toHaveBeenCalledTimes(1);
    } finally {
      format.mockRestore();
    }
  });

  it('does not add isolation marks around arguments', () => {
    const i18n = loadI18n(localesDir({ 'en/a.ftl': 'a-x = Pay { $amount } now\n', 'sw/a.ftl': '' }));
    expect(i18n.t('en', { id: 'a-x', args: { amount: 'KES 1.00' } })).toBe('Pay KES 1.00 now');
  });

  it('fails loudly on a syntax error, naming the file', () => {
    const dir = localesDir({ 'en/ok.ftl': 'ok-a = fine\n', 'sw/broken.ftl': 'ok-a = sawa\nbroken = { $x\n' });
    expect(() => loadI18n(dir)).toThrow(LocaleFileError);
    expect(() => loadI18n(dir)).toThrow(/sw[\\/]broken\.ftl[\s\S]*broken/);
    const junk = localesDir({ 'en/junk.ftl': 'this is not fluent\n', 'sw/x.ftl': '' });
    expect(() => loadI18n(junk)).toThrow(/junk\.ftl: *\n *line 1/);
  });

  it('accepts valid multiline messages, selects and attributes', () => {
    const body = [
      'multi =',
      '    first line',
      '    second line',
      'sel = { $n ->',
      '    [one] one item',
      '   *[other] { $n } items',
      '}',
      'attr = Value',
      '    .title = Title',
      '-brand = rampchat',
      'uses-term = Hi from { -brand }',
      '',
    ].join('\n');
    const i18n = loadI18n(localesDir({ 'en/ok.ftl': body, 'sw/ok.ftl': '' }));
    expect(i18n.t('en', { id: 'multi' })).toBe('first line\nsecond line');
    expect(i18n.t('en', { id: 'sel', args: { n: 3 } })).toBe('3 items');
    expect(i18n.t('en', { id: 'uses-term' })).toBe('Hi from rampchat');
    expect(i18n.ids('en')).not.toContain('-brand');
  });

  it('fails on an id defined twice', () => {
    const dir = localesDir({ 'en/a.ftl': 'dup = one\n', 'en/b.ftl': 'dup = two\n', 'sw/a.ftl': '' });
    expect(() => loadI18n(dir)).toThrow(/b\.ftl/);
  });

  it('loads the real locales folder', () => {
    const i18n = loadI18n();
    expect(i18n.t('sw', { id: 'core-menu-title' })).toBe('Ungependa kufanya nini?');
    expect(i18n.has('core-state-reset')).toBe(true);
  });
});

describe('the core locale files', () => {
  const ids = (lang: string, file: string) =>
    readFileSync(join(DEFAULT_LOCALES_DIR, lang, `${file}.ftl`), 'utf8')
      .split('\n')
      .map((l) => /^([a-z][a-z0-9-]*)\s*=/.exec(l)?.[1])
      .filter((x): x is string => Boolean(x))
      .sort();

  for (const file of MY_FILES) {
    it(`${file}.ftl has the same ids in en and sw, each prefixed ${file}-`, () => {
      expect(ids('sw', file)).toEqual(ids('en', file));
      for (const id of ids('en', file)) expect(id.startsWith(`${file}-`)).toBe(true);
    });
  }

  it('Kiswahili is a translation, not an English copy', () => {
    const i18n = loadI18n();
    const same = MY_FILES.flatMap((f) => ids('en', f)).filter((id) => {
      const en = i18n.t('en', { id, args: {} });
      return en === i18n.t('sw', { id, args: {} }) && /[a-z]{4,} [a-z]{4,}/i.test(en);
    });
    expect(same).toEqual([]);
  });

  it('every text id written in the flows exists in both languages', () => {
    const i18n = loadI18n();
    const srcDir = join(DEFAULT_LOCALES_DIR, '..', 'src', 'flows');
    const used = new Set<string>();
    const files = readdirSync(srcDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    for (const file of files) {
      const src = readFileSync(join(srcDir, file), 'utf8');
      for (const m of src.matchAll(/'((?:core|buy|quote|settings|history|help)-[a-z0-9-]+)'/g))
        used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(80);
    expect([...used].filter((id) => !i18n.hasIn('en', id) || !i18n.hasIn('sw', id))).toEqual([]);
  });
});

describe('formatting', () => {
  it('KES with two decimals and separators, KES in English and KSh in Kiswahili', () => {
    expect(formatKes('en', 1234)).toBe('KES 1,234.00');
    expect(formatKes('sw', 1234.5)).toBe('KSh 1,234.50');
    expect(formatKes('en', 0.005)).toBe('KES 0.01');
    expect(formatKes('en', 10000000)).toBe('KES 10,000,000.00');
  });

  it('token amounts keep up to 6 decimals exactly', () => {
    expect(formatToken('en', '0.7738740133106331', 'USDT')).toBe('0.773874 USDT');
    expect(formatToken('sw', '12345.5', 'cKES')).toBe('12,345.5 cKES');
    expect(formatToken('en', '123456789012345678.123456789', 'ETH')).toBe(
      '123,456,789,012,345,678.123457 ETH',
    );
    expect(formatToken('en', 1e-7, 'ETH')).toBe('0 ETH');
    expect(formatToken('en', '2', 'USDT')).toBe('2 USDT');
  });

  it('dates in Kenyan time', () => {
    expect(formatDateTime('en', '2025-07-10T22:31:05.398Z')).toBe('2025-07-11 01:31 EAT');
    expect(formatDateTime('en', 'not a date')).toBe('not a date');
  });

  it('picks a supported locale from a client language', () => {
    expect(pickLocale('sw-KE')).toBe('sw');
    expect(pickLocale('sw')).toBe('sw');
    expect(pickLocale('en-GB')).toBe('en');
    expect(pickLocale('fr')).toBe('en');
    expect(pickLocale(undefined)).toBe('en');
  });
});
