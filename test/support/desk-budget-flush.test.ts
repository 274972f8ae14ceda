/**
 * A stop with the desk busy (issue 31: five of eight queued desk posts never came): the budget's
 * queue goes at once, every case side by side, instead of at the group's pace, so its calls reach
 * the outbox (and the other replicas) before the process exits.
 */
import { describe, expect, it } from 'vitest';
import { createDeskBudget } from '../../src/support/desk/budget.js';

describe("the desk budget's flush", () => {
  it('runs every waiting post, line and card at once, whatever the group is doing', async () => {
    const budget = createDeskBudget({ onError: () => {} });
    const ran: string[] = [];
    let release: () => void = () => {};
    // A post in flight holds the group: the rest would wait their turns behind it, 3 s apart.
    budget.add('S-1', '-100', 'routine', () => new Promise<void>((r) => (release = r)));
    for (let i = 0; i < 8; i++)
      budget.add(`S-${i + 2}`, '-100', 'routine', async () => void ran.push(`post ${i}`));
    budget.addLine('S-2', '-100', 'hello', async (lines) => void ran.push(`line ${lines.join('+')}`));
    budget.card('S-3', '-100', async () => void ran.push('card S-3'));
    await new Promise((r) => setTimeout(r, 50));
    expect(ran).toEqual([]);

    budget.flush();
    await new Promise((r) => setTimeout(r, 50));
    expect(ran).toHaveLength(10);
    expect(ran).toEqual(expect.arrayContaining(['line hello', 'card S-3', 'post 7']));
    release();
    await budget.idle();
  });
});
