/** Reading a standing buy's schedule as typed, in English and Kiswahili (Swahili time included). */
import { describe, expect, it } from 'vitest';
import { cadenceOf, readScheduleWords } from '../../src/savings/flow-words.js';
import { cadenceText } from '../../src/savings/schedule.js';

const cad = (typed: string, today = 4) => {
  const w = readScheduleWords(typed);
  const c = cadenceOf(w, today);
  return { cadence: c ? cadenceText(c) : undefined, rest: w.rest, bad: w.bad };
};

describe('standing buy schedule words', () => {
  it('English', () => {
    expect(cad('500 KES USDT every friday')).toEqual({
      cadence: 'w5@9',
      rest: '500 kes usdt',
      bad: undefined,
    });
    expect(cad('500 USDT polygon weekly')).toMatchObject({ cadence: 'w4@9', rest: '500 usdt polygon' });
    expect(cad('1000 USDT monthly on the 1st')).toMatchObject({ cadence: 'm1@9', rest: '1000 usdt' });
    expect(cad('1000 USDT monthly on the 31st at 18:00')).toMatchObject({ cadence: 'm31@18' });
    expect(cad('200 USDT daily at 7am')).toMatchObject({ cadence: 'd@7', rest: '200 usdt' });
    expect(cad('200 USDT every day at 6pm')).toMatchObject({ cadence: 'd@18' });
    expect(cad('300 cUSD celo every monday at 8')).toMatchObject({ cadence: 'w1@8', rest: '300 cusd celo' });
    expect(cad('500 USDT on the 32nd').bad).toBe('32nd');
    expect(cad('500 USDT').cadence).toBeUndefined();
  });

  it('Kiswahili, with Swahili time (saa 3 asubuhi is 09:00, saa 1 jioni is 19:00)', () => {
    expect(cad('500 USDT kila ijumaa')).toMatchObject({ cadence: 'w5@9', rest: '500 usdt' });
    expect(cad('500 USDT kila wiki')).toMatchObject({ cadence: 'w4@9' });
    expect(cad('1000 USDT kila mwezi tarehe 1')).toMatchObject({ cadence: 'm1@9', rest: '1000 usdt' });
    expect(cad('200 USDT kila siku saa 1 asubuhi')).toMatchObject({ cadence: 'd@7', rest: '200 usdt' });
    expect(cad('200 USDT kila jumapili saa 1 jioni')).toMatchObject({ cadence: 'w7@19' });
    expect(cad('200 USDT kila jumatatu saa 3')).toMatchObject({ cadence: 'w1@9' });
    expect(cad('200 USDT kila siku saa 14:00')).toMatchObject({ cadence: 'd@14' });
  });
});
