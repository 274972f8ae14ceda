/**
 * When a standing buy is due, in Nairobi time (UTC+3 all year: Kenya has no daylight saving, so a
 * fixed offset is exact). Pure arithmetic on epoch ms; no clock is read here. A cadence is stored in
 * a few characters ("w5@9": Fridays at 09:00; "m31@9": the 31st, or the month's last day when it is
 * shorter; "d@7": every day at 07:00), and every due time belongs to a period ("2026-W48",
 * "2026-11", "2026-11-27") that names its run: one run, one reminder, per period.
 */

/** Nairobi's offset from UTC in ms (EAT, no DST). */
export const NAIROBI_OFFSET_MS = 3 * 3600_000;
const DAY_MS = 24 * 3600_000;

export type Every = 'daily' | 'weekly' | 'monthly';

export interface Cadence {
  every: Every;
  /** weekly: ISO weekday 1 (Monday) … 7 (Sunday); monthly: day of the month 1…31; daily: unused. */
  day: number;
  /** Hour of the day in Nairobi, 0…23. */
  hour: number;
}

/** The default hour of a run when none was given. */
export const DEFAULT_HOUR = 9;

const CADENCE_TEXT = /^(?:d|w([1-7])|m([1-9]|[12]\d|3[01]))@(\d|1\d|2[0-3])$/;

/** "w5@9" → a cadence; undefined for anything else. */
export function parseCadence(s: string): Cadence | undefined {
  const m = CADENCE_TEXT.exec(s);
  if (!m) return undefined;
  const hour = Number(m[3]);
  if (m[1]) return { every: 'weekly', day: Number(m[1]), hour };
  if (m[2]) return { every: 'monthly', day: Number(m[2]), hour };
  return { every: 'daily', day: 0, hour };
}

/** The stored form of a cadence ("w5@9"). */
export function cadenceText(c: Cadence): string {
  const head = c.every === 'daily' ? 'd' : `${c.every === 'weekly' ? 'w' : 'm'}${c.day}`;
  return `${head}@${c.hour}`;
}

/** Nairobi's calendar fields of an instant (read from a shifted UTC date). */
function local(ms: number) {
  const d = new Date(ms + NAIROBI_OFFSET_MS);
  return { y: d.getUTCFullYear(), mo: d.getUTCMonth(), d: d.getUTCDate(), wd: d.getUTCDay() || 7 };
}

/** The instant of a Nairobi wall-clock time (month may overflow; Date.UTC normalises it). */
const at = (y: number, mo: number, d: number, hour: number) => Date.UTC(y, mo, d, hour) - NAIROBI_OFFSET_MS;

const daysIn = (y: number, mo: number) => new Date(Date.UTC(y, mo + 1, 0)).getUTCDate();

/** The monthly run of a month: its `day`, or its last day when the month is shorter (the 31st in April → the 30th). */
const monthly = (y: number, mo: number, c: Cadence) => {
  const first = new Date(Date.UTC(y, mo, 1));
  const yy = first.getUTCFullYear();
  const mm = first.getUTCMonth();
  return at(yy, mm, Math.min(c.day, daysIn(yy, mm)), c.hour);
};

/** The first due time strictly after `afterMs`. */
export function nextDue(c: Cadence, afterMs: number): number {
  const l = local(afterMs);
  if (c.every === 'daily') {
    const t = at(l.y, l.mo, l.d, c.hour);
    return t > afterMs ? t : t + DAY_MS;
  }
  if (c.every === 'weekly') {
    const t = at(l.y, l.mo, l.d + ((c.day - l.wd + 7) % 7), c.hour);
    return t > afterMs ? t : t + 7 * DAY_MS;
  }
  const t = monthly(l.y, l.mo, c);
  return t > afterMs ? t : monthly(l.y, l.mo + 1, c);
}

/** The last due time at or before `atMs` (what is owed now, after any downtime: one run, not a backlog). */
export function latestDue(c: Cadence, atMs: number): number {
  const l = local(atMs);
  if (c.every === 'daily') {
    const t = at(l.y, l.mo, l.d, c.hour);
    return t <= atMs ? t : t - DAY_MS;
  }
  if (c.every === 'weekly') {
    const t = at(l.y, l.mo, l.d - ((l.wd - c.day + 7) % 7), c.hour);
    return t <= atMs ? t : t - 7 * DAY_MS;
  }
  const t = monthly(l.y, l.mo, c);
  return t <= atMs ? t : monthly(l.y, l.mo - 1, c);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The ISO week of a Nairobi date ("2026-W48"): the week's Thursday decides its year. */
function isoWeek(ms: number): string {
  const l = local(ms);
  const thursday = new Date(Date.UTC(l.y, l.mo, l.d + 4 - l.wd));
  const y = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(y, 0, 1)) / (7 * DAY_MS)) + 1;
  return `${y}-W${pad(week)}`;
}

/** The period a due time belongs to, which names its run: "2026-11-27", "2026-W48" or "2026-11". */
export function periodId(c: Cadence, dueMs: number): string {
  const l = local(dueMs);
  if (c.every === 'weekly') return isoWeek(dueMs);
  if (c.every === 'monthly') return `${l.y}-${pad(l.mo + 1)}`;
  return `${l.y}-${pad(l.mo + 1)}-${pad(l.d)}`;
}
