/**
 * Kiswahili from the first word: a small word list (pure) tells a Kiswahili message; the first one
 * switches the session to Kiswahili, which stays until the user chooses otherwise; the welcome has a
 * one-tap switch; /language goes back to the menu after the choice.
 */
import { describe, expect, it } from 'vitest';
import { initialSession } from '../../src/flows/index.js';
import { languageOf, soundsKiswahili } from '../../src/flows/router/language.js';
import { Driver } from './helpers.js';

describe('soundsKiswahili', () => {
  it('hears greetings and requests in Kiswahili', () => {
    for (const typed of [
      'habari',
      'Mambo!',
      'jambo',
      'nataka kununua',
      'salama',
      'Shikamoo',
      'habari za asubuhi',
      'naomba msaada',
      'nataka kuuza 500',
      'asante sana',
    ])
      expect(soundsKiswahili(typed), typed).toBe(true);
  });

  it('not in English, figures, addresses or words Kenyans mix into English', () => {
    for (const typed of [
      'hi',
      'hello there',
      'buy 500 USDT polygon',
      '0712345678',
      '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
      'sawa',
      'poa',
      'ok',
      'Confirm',
      // M-Pesa is a name: "Sent tokens, no M-Pesa" is English (it switched a ticket form to Kiswahili).
      'Sent tokens, no M-Pesa',
      'paid with mpesa',
    ])
      expect(soundsKiswahili(typed), typed).toBe(false);
  });

  it('a Kiswahili command is Kiswahili; an English one says nothing', () => {
    expect(languageOf({ kind: 'command', command: 'nunua', args: '' })).toBe('sw');
    expect(languageOf({ kind: 'command', command: 'historia', args: '' })).toBe('sw');
    expect(languageOf({ kind: 'command', command: 'buy', args: '' })).toBeUndefined();
    expect(languageOf({ kind: 'button', id: 'menu:buy' })).toBeUndefined();
  });
});

describe('the session follows the user’s language', () => {
  it('a Kiswahili greeting answers in Kiswahili with the welcome, and Kiswahili stays after English words', () => {
    const d = new Driver();
    const hello = d.text('habari');
    expect(d.session.locale).toBe('sw');
    expect(hello.ids).toEqual(expect.arrayContaining(['core-welcome', 'core-menu-title']));
    // The switch offers English back, in one tap.
    expect(hello.buttonIds).toContain('lang:en');
    d.text('hello');
    d.command('buy');
    expect(d.session.locale).toBe('sw');
  });

  it('"nataka kununua" starts a buy, in Kiswahili', () => {
    const d = new Driver();
    d.text('nataka kununua');
    expect(d.session.locale).toBe('sw');
    expect(d.flow.name).toBe('buy');
  });

  it('a user who chose English stays in English whatever they write', () => {
    const d = new Driver();
    d.command('language', 'en');
    d.text('habari');
    expect(d.session.locale).toBe('en');
  });

  it('the welcome’s switch changes the language in one tap and shows the menu again', () => {
    const d = new Driver();
    const welcome = d.command('start');
    expect(welcome.buttonIds.at(-1)).toBe('lang:sw');
    const switched = d.button('lang:sw');
    expect(d.session.locale).toBe('sw');
    expect(d.session.profile.localeChosen).toBe(true);
    expect(switched.ids).toEqual(expect.arrayContaining(['settings-language-saved', 'core-menu-title']));
    expect(d.flow).toEqual({ name: 'menu' });
    // Chosen: English words do not switch it back, Kiswahili ones do not matter either.
    d.text('hello');
    expect(d.session.locale).toBe('sw');
  });

  it('/language returns to the menu after the choice, not to Settings', () => {
    const d = new Driver();
    d.command('language');
    const chosen = d.button('set:lang:sw');
    expect(d.flow).toEqual({ name: 'menu' });
    expect(chosen.ids).toEqual(expect.arrayContaining(['settings-language-saved', 'core-menu-title']));
    const typed = new Driver();
    typed.command('language');
    typed.text('English');
    expect(typed.flow).toEqual({ name: 'menu' });
  });

  it('a session that starts in Kiswahili (Telegram’s language_code) welcomes in Kiswahili and offers English', () => {
    const d = new Driver(initialSession({ locale: 'sw' }));
    const out = d.text('hi');
    expect(d.session.locale).toBe('sw');
    expect(out.ids).toContain('core-welcome');
    expect(out.buttonIds).toContain('lang:en');
  });
});
