/**
 * Which month a statement covers: `/statement` (this month), `october`, `oktoba`, `oct 2025`,
 * `2026-09`. Months are calendar months in Nairobi time (EAT, UTC+3, no daylight saving), so a
 * month begins at 21:00 UTC on the last day of the month before. A month named without a year is
 * its latest one not in the future (in November, "december" is last December). Pure.
 */
import type { StatementRequest } from '../flows/types.js';

/** Nairobi's offset from UTC: Kenya keeps UTC+3 all year. */
export const NAIROBI_OFFSET_MS = 3 * 3600_000;

const NAMES: Record<string, number> = {};
const EN = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const SW = [
  'januari',
  'februari',
  'machi',
  'aprili',
  'mei',
  'juni',
  'julai',
  'agosti',
  'septemba',
  'oktoba',
  'novemba',
  'desemba',
];
for (const [i, name] of EN.entries()) {
  NAMES[name] = i + 1;
  NAMES[name.slice(0, 3)] = i + 1;
}
for (const [i, name] of SW.entries()) NAMES[name] = i + 1;
NAMES.sept = 9;

export type MonthParse =
  | { ok: true; month: StatementRequest }
  | { ok: false; reason: 'unknown' }
  | { ok: false; reason: 'future'; month: StatementRequest };

/** The Nairobi calendar month `now` falls in. */
export function monthOf(now: number): StatementRequest {
  const local = new Date(now + NAIROBI_OFFSET_MS);
  return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1 };
}

/** Reads a month from the command's words; nothing means this month. */
export function parseMonth(words: string, now: number): MonthParse {
  const current = monthOf(now);
  const tokens = words
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);
  if (!tokens.length) return { ok: true, month: current };
  let year: number | undefined;
  let month: number | undefined;
  for (const t of tokens) {
    const iso = /^(\d{4})[-/.](\d{1,2})$/.exec(t);
    if (iso) {
      year = Number(iso[1]);
      month = Number(iso[2]);
    } else if (/^\d{4}$/.test(t)) year = Number(t);
    else if (NAMES[t.replace(/\.$/, '')] !== undefined) month = NAMES[t.replace(/\.$/, '')];
    else return { ok: false, reason: 'unknown' };
  }
  if (month === undefined || month < 1 || month > 12) return { ok: false, reason: 'unknown' };
  if (year === undefined) year = month > current.month ? current.year - 1 : current.year;
  if (year < 2000) return { ok: false, reason: 'unknown' };
  const asked = { year, month };
  if (year * 12 + month > current.year * 12 + current.month)
    return { ok: false, reason: 'future', month: asked };
  return { ok: true, month: asked };
}

/** The month's first and last instant in epoch ms: [start, end). */
export function periodOf(m: StatementRequest): { start: number; end: number } {
  return {
    start: Date.UTC(m.year, m.month - 1, 1) - NAIROBI_OFFSET_MS,
    end: Date.UTC(m.year, m.month, 1) - NAIROBI_OFFSET_MS,
  };
}

/** The month's first and last day as `YYYY-MM-DD` (Nairobi). */
export function periodDays(m: StatementRequest): { first: string; last: string } {
  const last = new Date(Date.UTC(m.year, m.month, 0)).getUTCDate();
  const mm = String(m.month).padStart(2, '0');
  return { first: `${m.year}-${mm}-01`, last: `${m.year}-${mm}-${String(last).padStart(2, '0')}` };
}

/** `2026-10`, as file names and button ids carry a month. */
export const monthKey = (m: StatementRequest): string => `${m.year}-${String(m.month).padStart(2, '0')}`;

/** A time as Nairobi shows it: `2026-10-05 14:03`. */
export function nairobiTime(ms: number): string {
  const iso = new Date(ms + NAIROBI_OFFSET_MS).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}
