/**
 * Reading a standing buy's schedule from what the user typed, in English or Kiswahili, apart from
 * the amount and token (parse.ts reads those): "every friday", "weekly", "monthly on the 1st",
 * "daily at 7am", "kila ijumaa", "kila mwezi tarehe 1", "kila siku saa 3 asubuhi" (Swahili time:
 * saa 3 asubuhi is 09:00). Pure; the default hour is 09:00.
 */
import { type Cadence, DEFAULT_HOUR, type Every } from './schedule.js';

const WEEKDAYS: Record<string, number> = {
  monday: 1,
  mon: 1,
  jumatatu: 1,
  tuesday: 2,
  tue: 2,
  tues: 2,
  jumanne: 2,
  wednesday: 3,
  wed: 3,
  jumatano: 3,
  thursday: 4,
  thu: 4,
  thur: 4,
  thurs: 4,
  alhamisi: 4,
  friday: 5,
  fri: 5,
  ijumaa: 5,
  saturday: 6,
  sat: 6,
  jumamosi: 6,
  sunday: 7,
  sun: 7,
  jumapili: 7,
};

const EVERY_WORDS: Record<string, Every> = {
  daily: 'daily',
  day: 'daily',
  siku: 'daily',
  kila_siku: 'daily',
  weekly: 'weekly',
  week: 'weekly',
  wiki: 'weekly',
  monthly: 'monthly',
  month: 'monthly',
  mwezi: 'monthly',
};

/** Words that only join the others ("every", "on the", "kila"). */
const FILLER = new Set(['every', 'each', 'on', 'the', 'of', 'at', 'kila', 'siku_ya', 'ya', 'na', 'a']);
/** Swahili parts of the day after "saa N": how far past the Swahili hour's 12-hour reading. */
const DAY_PARTS: Record<string, number> = { asubuhi: 0, mchana: 12, alasiri: 12, jioni: 12, usiku: 12 };

export interface ScheduleWords {
  /** Absent when nothing about the schedule was typed. */
  every?: Every;
  day?: number;
  hour?: number;
  /** What was not about the schedule (amount, token, network, wallet…), in order. */
  rest: string;
  /** A schedule word that could not be read ("on the 32nd", "at 25:00"). */
  bad?: string;
}

const ORDINAL = /^(\d{1,2})(?:st|nd|rd|th)?$/;

/** A 24-hour "07:00", "7am", "6pm", "18h" → hour. */
function clockHour(w: string): number | undefined {
  const m = /^(\d{1,2})(?::(\d{2}))?(am|pm|h)?$/.exec(w);
  if (!m) return undefined;
  let h = Number(m[1]);
  if (m[3] === 'pm' && h < 12) h += 12;
  if (m[3] === 'am' && h === 12) h = 0;
  return h <= 23 && (m[2] === undefined || m[2] === '00') ? h : undefined;
}

/** Reads the schedule words out of `input`; the other words are returned as `rest`. */
export function readScheduleWords(input: string): ScheduleWords {
  const words = input.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const out: ScheduleWords = { rest: '' };
  const rest: string[] = [];
  let expectDay = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!.replace(/[,.;]+$/, '');
    const next = words[i + 1]?.replace(/[,.;]+$/, '');
    if (w === 'kila' && next && EVERY_WORDS[next]) {
      out.every = EVERY_WORDS[next];
      i++;
      continue;
    }
    if (EVERY_WORDS[w] && (w.endsWith('ly') || words[i - 1] === 'every' || words[i - 1] === 'each')) {
      out.every = EVERY_WORDS[w];
      continue;
    }
    if (WEEKDAYS[w]) {
      out.every ??= 'weekly';
      out.day = WEEKDAYS[w];
      continue;
    }
    if (w === 'tarehe' || ((w === 'the' || w === 'on') && next && /^\d{1,2}(st|nd|rd|th)$/.test(next))) {
      expectDay = true;
      continue;
    }
    if (FILLER.has(w)) continue;
    const ordinal = ORDINAL.exec(w);
    if (ordinal && (expectDay || /(st|nd|rd|th)$/.test(w))) {
      const d = Number(ordinal[1]);
      if (d < 1 || d > 31) out.bad = w;
      else {
        out.every ??= 'monthly';
        out.day = d;
      }
      expectDay = false;
      continue;
    }
    if (w === 'saa' && next) {
      const n = Number(next);
      const part = DAY_PARTS[words[i + 2] ?? ''];
      if (/^\d{1,2}:\d{2}$/.test(next)) out.hour = clockHour(next);
      else if (Number.isInteger(n) && n >= 1 && n <= 12) out.hour = ((n + 6) % 12) + (part ?? 0);
      else out.bad = next;
      if (out.hour === undefined) out.bad = next;
      i += part === undefined ? 1 : 2;
      continue;
    }
    if (words[i - 1] === 'at' || /^\d{1,2}(:\d{2})?(am|pm|h)$/.test(w) || /^\d{1,2}:\d{2}$/.test(w)) {
      const h = clockHour(w);
      if (h === undefined) out.bad = w;
      else out.hour = h;
      continue;
    }
    rest.push(words[i]!);
  }
  out.rest = rest.join(' ');
  return out;
}

/** The cadence the words name, with defaults: weekly on `todayWeekday`, monthly on the 1st, at 09:00. */
export function cadenceOf(w: ScheduleWords, todayWeekday: number): Cadence | undefined {
  if (!w.every) return undefined;
  const hour = w.hour ?? DEFAULT_HOUR;
  if (w.every === 'daily') return { every: 'daily', day: 0, hour };
  if (w.every === 'weekly') return { every: 'weekly', day: w.day && w.day <= 7 ? w.day : todayWeekday, hour };
  return { every: 'monthly', day: w.day ?? 1, hour };
}
