/**
 * No async context in src: what a piece of work says of its sends travels as an argument
 * (src/outbound/scope.ts). On Node 20 a single AsyncLocalStorage in use sends every promise and
 * native callback of the process through its hooks, which each update pays for (README,
 * "Conversation"); one `run` anywhere turns them on for good.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nextSendName, type SendScope, sendScope, withClass } from '../../src/outbound/scope.js';

const SRC = join(import.meta.dirname, '..', '..', 'src');

describe('the send scope', () => {
  it('is no AsyncLocalStorage nor async hook: nothing in src imports node:async_hooks', () => {
    const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const hooked = files.filter((f) =>
      /['"](node:)?async_hooks['"]/.test(readFileSync(join(SRC, f), 'utf8')),
    );
    expect(hooked).toEqual([]);
  });

  it('names the sends of one piece of work in order, across the scopes derived from it', () => {
    const update = sendScope('tg:7');
    const asReply = withClass(update, 'reply');
    const redone: SendScope = Object.assign({}, asReply, { redo: true });
    expect([nextSendName(update), nextSendName(asReply), nextSendName(redone)]).toEqual([
      'tg:7:0',
      'tg:7:1',
      'tg:7:2',
    ]);
    expect(asReply.cls).toBe('reply');
    expect(update.cls).toBeUndefined();
    // The same class again: the same scope, nothing made.
    expect(withClass(asReply, 'reply')).toBe(asReply);
    expect(nextSendName(undefined)).toBeUndefined();
    expect(nextSendName(sendScope('final:o1', { strict: true }))).toBe('final:o1:0');
  });
});
