/**
 * The schedule arithmetic in Nairobi time (UTC+3, no DST): next and latest due times of daily,
 * weekly and monthly plans (the 31st in short months and in February of a leap year), and the
 * period that names each run (ISO weeks across a year's end).
 */
import { describe, expect, it } from 'vitest';
import {
  type Cadence,
  cadenceText,
  latestDue,
  nextDue,
  parseCadence,
  periodId,
} from '../../src/savings/schedule.js';

/** A Nairobi wall-clock time as epoch ms. */
const eat = (iso: string) => Date.parse(`${iso}+03:00`);
const iso = (ms: number) => new Date(ms + 3 * 3600_000).toISOString().slice(0, 16);

const friday9: Cadence = { every: 'weekly', day: 5, hour: 9 };
const on31: Cadence = { every: 'monthly', day: 31, hour: 9 };

describe('standing buy schedule (Africa/Nairobi)', () => {
  it('stores a cadence in a few characters and reads it back', () => {
    for (const c of [friday9, on31, { every: 'daily', day: 0, hour: 7 } as Cadence]) {
      expect(parseCadence(cadenceText(c))).toEqual(c);
    }
    expect(cadenceText(friday9)).toBe('w5@9');
    expect(parseCadence('w8@9')).toBeUndefined();
    expect(parseCadence('m32@9')).toBeUndefined();
    expect(parseCadence('d@24')).toBeUndefined();
  });

  it('weekly: the next Friday 09:00 EAT, strictly after now', () => {
    // Thursday 2026-11-26 22:00 EAT → Friday 27th 09:00 EAT (06:00 UTC).
    const next = nextDue(friday9, eat('2026-11-26T22:00'));
    expect(iso(next)).toBe('2026-11-27T09:00');
    expect(new Date(next).toISOString()).toBe('2026-11-27T06:00:00.000Z');
    expect(iso(nextDue(friday9, eat('2026-11-27T09:00')))).toBe('2026-12-04T09:00');
    expect(iso(nextDue(friday9, eat('2026-11-27T08:59')))).toBe('2026-11-27T09:00');
    // Late Thursday UTC is already Friday in Nairobi.
    expect(iso(nextDue(friday9, Date.parse('2026-11-26T22:30:00Z')))).toBe('2026-11-27T09:00');
  });

  it('monthly on the 31st: the last day of shorter months, February in a leap year', () => {
    const seen: string[] = [];
    let t = eat('2027-12-31T10:00');
    for (let i = 0; i < 5; i++) {
      t = nextDue(on31, t);
      seen.push(iso(t));
    }
    expect(seen).toEqual([
      '2028-01-31T09:00',
      '2028-02-29T09:00',
      '2028-03-31T09:00',
      '2028-04-30T09:00',
      '2028-05-31T09:00',
    ]);
    expect(iso(nextDue({ every: 'monthly', day: 1, hour: 9 }, eat('2026-12-15T00:00')))).toBe(
      '2027-01-01T09:00',
    );
  });

  it('daily at 07:00', () => {
    const daily: Cadence = { every: 'daily', day: 0, hour: 7 };
    expect(iso(nextDue(daily, eat('2026-11-26T06:59')))).toBe('2026-11-26T07:00');
    expect(iso(nextDue(daily, eat('2026-11-26T07:00')))).toBe('2026-11-27T07:00');
  });

  it('latest due: what one reminder covers after any downtime (one run, not a backlog)', () => {
    // Three weeks down: the run owed is only the latest Friday's.
    expect(iso(latestDue(friday9, eat('2026-12-19T12:00')))).toBe('2026-12-18T09:00');
    expect(iso(latestDue(friday9, eat('2026-12-18T09:00')))).toBe('2026-12-18T09:00');
    expect(iso(latestDue(friday9, eat('2026-12-18T08:59')))).toBe('2026-12-11T09:00');
    expect(iso(latestDue(on31, eat('2028-03-15T00:00')))).toBe('2028-02-29T09:00');
    for (const c of [friday9, on31, { every: 'daily', day: 0, hour: 7 } as Cadence]) {
      const now = eat('2026-07-13T15:17');
      const last = latestDue(c, now);
      expect(last).toBeLessThanOrEqual(now);
      expect(nextDue(c, last)).toBeGreaterThan(now);
    }
  });

  it('periods name runs: ISO weeks across a year end, months, days', () => {
    expect(periodId(friday9, eat('2026-11-27T09:00'))).toBe('2026-W48');
    // Friday 2027-01-01 belongs to ISO week 53 of 2026.
    expect(periodId(friday9, eat('2027-01-01T09:00'))).toBe('2026-W53');
    expect(periodId({ every: 'weekly', day: 1, hour: 9 }, eat('2029-12-31T09:00'))).toBe('2030-W01');
    expect(periodId(on31, eat('2028-02-29T09:00'))).toBe('2028-02');
    expect(periodId({ every: 'daily', day: 0, hour: 7 }, eat('2026-11-26T07:00'))).toBe('2026-11-26');
    // 00:30 EAT is still the previous day in UTC: the period follows Nairobi.
    expect(periodId({ every: 'daily', day: 0, hour: 0 }, eat('2026-11-27T00:30'))).toBe('2026-11-27');
  });
});
