/**
 * Kiswahili from the first word: a small word list tells a Kiswahili message ("habari", "nataka
 * kununua", "/nunua") from an English one. Pure; the router switches a session to Kiswahili on the
 * first such message unless the user chose a language, and never switches back on its own.
 */
import type { Locale } from '../../chat/types.js';
import type { Session } from '../session.js';
import type { Input } from '../types.js';

/**
 * Words only a Kiswahili speaker writes to us: greetings, politeness, what people ask for. Left out:
 * words Kenyans drop into English too ("sawa", "poa"), and short ones other languages share ("la",
 * "na", "ya").
 */
const KISWAHILI_WORDS = new Set([
  // greetings and answers to them
  'habari',
  'hujambo',
  'hamjambo',
  'sijambo',
  'jambo',
  'mambo',
  'shikamoo',
  'marahaba',
  'salama',
  'salaama',
  'niaje',
  'vipi',
  'sasa',
  'karibu',
  'asubuhi',
  'mchana',
  'jioni',
  'usiku',
  'kwaheri',
  // politeness
  'asante',
  'ahsante',
  'tafadhali',
  'samahani',
  // what people ask for
  'nataka',
  'ningependa',
  'naomba',
  'nisaidie',
  'msaada',
  'nunua',
  'kununua',
  'ninunue',
  'uza',
  'kuuza',
  'niuze',
  'bei',
  'pesa',
  'shilingi',
  'elfu',
  'lipa',
  'kulipa',
  'tuma',
  'kutuma',
  'pochi',
  'oda',
  'historia',
  'lugha',
  'kiswahili',
  'mipangilio',
  'menyu',
  'ghairi',
  'rudi',
  'ndiyo',
  'ndio',
  'hapana',
  'nini',
  'gani',
  'yangu',
  'yako',
  'wangu',
  'wako',
  'mimi',
  'wewe',
]);

/** Kiswahili spellings of commands (`/nunua`, `/historia`): typing one is writing Kiswahili. */
const KISWAHILI_COMMANDS = new Set([
  'nunua',
  'uza',
  'bei',
  'historia',
  'msaada',
  'lugha',
  'mipangilio',
  'ghairi',
  'rudi',
  'tiketi',
  'wakala',
  'menyu',
]);

/** The words of a message, lower-cased, without punctuation or digits; "M-Pesa" is a name, not Kiswahili. */
const wordsOf = (typed: string): string[] =>
  typed
    .toLowerCase()
    .replace(/\bm[\s-]?pesa\b/gu, ' ')
    .split(/[^\p{L}]+/u)
    .filter(Boolean);

/** True when the message has a word only a Kiswahili speaker would write to us. */
export function soundsKiswahili(typed: string): boolean {
  if (/^\s*\/\w/.test(typed)) {
    const command = /^\s*\/(\w+)/.exec(typed)![1]!.toLowerCase();
    if (KISWAHILI_COMMANDS.has(command)) return true;
  }
  return wordsOf(typed).some((w) => KISWAHILI_WORDS.has(w));
}

/** The language an input tells of, when it tells one. */
export function languageOf(input: Input): Locale | undefined {
  if (input.kind === 'text') return soundsKiswahili(input.text) ? 'sw' : undefined;
  if (input.kind === 'command')
    return KISWAHILI_COMMANDS.has(input.command.replace(/^\//, '').toLowerCase()) ? 'sw' : undefined;
  return undefined;
}

/**
 * A user who writes Kiswahili is answered in Kiswahili from then on: the session switches on the
 * first Kiswahili message, unless the user chose a language themselves (Settings, /language, the
 * welcome's switch); it never switches back to English on its own.
 */
export function followUserLanguage(session: Session, input: Input): Session {
  if (session.locale === 'sw' || session.profile.localeChosen) return session;
  return languageOf(input) === 'sw' ? { ...session, locale: 'sw' } : session;
}

/** Sets the language the user chose: kept until they choose again, whatever they write. */
export function chooseLanguage(session: Session, locale: Locale): Session {
  return { ...session, locale, profile: { ...session.profile, localeChosen: true } };
}
