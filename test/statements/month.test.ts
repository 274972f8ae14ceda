/**
 * Which month a statement covers, and what it gathers: month names in English and Kiswahili, ISO
 * months, a month to come refused; Nairobi's midnight as the month's edge; 200 orders read over
 * pages of history; the CSV's quoting (RFC 4180) and its totals equal to the orders added up.
 */
import { describe, expect, it } from 'vitest';
import type { OwnOrder } from '../../src/flows/types.js';
import { loadI18n } from '../../src/i18n/index.js';
import { contentOf } from '../../src/statements/content.js';
import { csvField, renderCsv } from '../../src/statements/csv.js';
import { addDecimal, gatherMonth } from '../../src/statements/gather.js';
import { parseMonth, periodOf } from '../../src/statements/month.js';
import { syntheticOrders } from './orders.js';
import { csvRows, sumCents } from './read.js';

const NOW = Date.parse('2026-11-28T09:00:00Z');
const i18n = loadI18n();

describe('parseMonth', () => {
  it('reads month names in both languages, ISO months and nothing (this month)', () => {
    expect(parseMonth('', NOW)).toEqual({ ok: true, month: { year: 2026, month: 11 } });
    expect(parseMonth('october', NOW)).toEqual({ ok: true, month: { year: 2026, month: 10 } });
    expect(parseMonth('Oktoba', NOW)).toEqual({ ok: true, month: { year: 2026, month: 10 } });
    expect(parseMonth('oct 2025', NOW)).toEqual({ ok: true, month: { year: 2025, month: 10 } });
    expect(parseMonth('2026-09', NOW)).toEqual({ ok: true, month: { year: 2026, month: 9 } });
    // A month not yet come this year is last year's.
    expect(parseMonth('desemba', NOW)).toEqual({ ok: true, month: { year: 2025, month: 12 } });
  });

  it('refuses a month to come and words that name no month', () => {
    expect(parseMonth('2026-12', NOW)).toEqual({
      ok: false,
      reason: 'future',
      month: { year: 2026, month: 12 },
    });
    expect(parseMonth('someday', NOW)).toEqual({ ok: false, reason: 'unknown' });
    expect(parseMonth('2026-13', NOW)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('takes the month in Nairobi time: 22:00 UTC on the 31st is already the next month', () => {
    expect(parseMonth('', Date.parse('2026-10-31T22:00:00Z'))).toEqual({
      ok: true,
      month: { year: 2026, month: 11 },
    });
    expect(periodOf({ year: 2026, month: 11 }).start).toBe(Date.parse('2026-10-31T21:00:00Z'));
  });
});

describe('gathering and the CSV', () => {
  const month = { year: 2026, month: 10 };
  const inMonth = syntheticOrders(200, month);
  const { start, end } = periodOf(month);
  const edge = (id: string, createdAt: number): OwnOrder => ({ ...inMonth[0]!, orderId: id, createdAt });
  // Newest first as the history gives them, with orders either side of the month's edges.
  const all = [
    edge('D-after', end),
    ...[...inMonth].reverse(),
    edge('D-first', start),
    edge('D-before', start - 1),
  ];
  const reads: number[] = [];
  const read = async (page: number, limit: number) => {
    reads.push(page);
    return {
      orders: all.slice((page - 1) * limit, page * limit),
      page,
      totalPages: Math.ceil(all.length / limit),
    };
  };

  it('reads 200 orders over pages, keeping the month from its first instant', async () => {
    const got = await gatherMonth(read, month);
    expect(got).toHaveLength(201);
    expect(got[0]!.orderId).toBe('D-first');
    expect(got.map((o) => o.orderId)).not.toContain('D-after');
    expect(got.map((o) => o.orderId)).not.toContain('D-before');
    expect(reads).toEqual([1, 2, 3, 4, 5]);
  });

  it('writes totals that are the completed orders added up, and quotes as RFC 4180 says', () => {
    const content = contentOf(month, inMonth, 'en', (id, args) =>
      i18n.t('en', { id, ...(args ? { args } : {}) }),
    );
    const rows = csvRows(renderCsv(content));
    const h = rows[0]!;
    const orders = rows.filter((r) => /^[DW]-/.test(r[h.indexOf('Order ID')] ?? ''));
    expect(orders).toHaveLength(200);
    const done = orders.filter((r) => r[h.indexOf('State')] === 'Completed');
    const totalOf = (label: string) => rows.find((r) => r[0]!.startsWith(label))!;
    for (const [label, column] of [
      ['Buys:', 'Paid KES'],
      ['Buys:', 'Fee KES'],
      ['Sells:', 'Received KES'],
    ] as const)
      expect(Math.round(Number(totalOf(label)[h.indexOf(column)]) * 100)).toBe(
        sumCents(done.map((r) => r[h.indexOf(column)]!)),
      );
    for (const t of rows.filter((r) => r[0] === 'Sell fees in tokens')) {
      const mine = done.filter(
        (r) =>
          r[h.indexOf('Type')] === 'Sell' &&
          r[h.indexOf('Token')] === t[h.indexOf('Token')] &&
          r[h.indexOf('Network')] === t[h.indexOf('Network')],
      );
      expect(mine.length).toBeGreaterThan(0);
      expect(t[h.indexOf('Fee (tokens)')]).toBe(
        mine.map((r) => r[h.indexOf('Fee (tokens)')]!).reduce(addDecimal, '0'),
      );
    }
    const sent = rows.filter((r) => r[0] === 'Tokens sent');
    for (const t of sent) {
      const mine = done.filter(
        (r) =>
          r[h.indexOf('Type')] === 'Sell' &&
          r[h.indexOf('Token')] === t[h.indexOf('Token')] &&
          r[h.indexOf('Network')] === t[h.indexOf('Network')],
      );
      expect(t[h.indexOf('Token amount')]).toBe(
        mine.map((r) => r[h.indexOf('Token amount')]!).reduce(addDecimal, '0'),
      );
    }
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b "c"\r\nd')).toBe('"a,b ""c""\r\nd"');
    expect(csvRows(Buffer.from(`${csvField('a,b "c"\r\nd')},x\r\n`))).toEqual([['a,b "c"\r\nd', 'x']]);
  });

  it('adds token amounts exactly', () => {
    expect(addDecimal('0.1', '0.2')).toBe('0.3');
    expect(addDecimal('1.999999', '0.000001')).toBe('2');
    expect(addDecimal('0', '3.861004')).toBe('3.861004');
  });
});
