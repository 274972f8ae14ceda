import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createTerminalChannel, parseCommand } from '../../src/channels/terminal/index.js';
import { createConversationEngine } from '../../src/engine/index.js';
import { loadI18n } from '../../src/i18n/index.js';
import { createLogger } from '../../src/log/logger.js';
import type { RampClient } from '../../src/ramp/types.js';
import { createMemoryStore, decodeSession } from '../../src/store/index.js';
import { counterFlow } from '../engine/fixtures.js';

function localesDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'terminal-ftl-'));
  const files: Record<string, string> = {
    en: 't-pick = Pick one\nt-confirm = ✅ Confirm\nt-docs = Read the docs\nt-cancel = Cancel\nt-cancelled = Cancelled.\nt-echo = You said { $text }\nt-lang = Language set\nterminal-phone-hint = (phone)\n',
    sw: 't-pick = Chagua moja\nt-confirm = Thibitisha\nt-docs = Soma maelezo\nt-cancel = Ghairi\nt-cancelled = Imeghairiwa.\nt-echo = Ulisema { $text }\nt-lang = Lugha imewekwa\nterminal-phone-hint = (simu)\n',
  };
  for (const [lang, body] of Object.entries(files)) {
    mkdirSync(join(dir, lang));
    writeFileSync(join(dir, lang, 't.ftl'), body);
  }
  return dir;
}

async function chat(lines: string[], locale?: 'en' | 'sw') {
  const store = createMemoryStore({ flowTtlSeconds: 600 });
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.on('data', (d) => {
    printed += String(d);
  });
  const terminal = createTerminalChannel({ input, output, i18n: loadI18n(localesDir()), locale });
  const engine = createConversationEngine({
    store,
    ramp: {} as RampClient,
    logger: createLogger({ level: 'silent' }),
    config: { rateTolerancePct: 1, project: 'test' },
    flow: counterFlow,
    channels: [terminal],
  });
  input.end(`${lines.join('\n')}\n`);
  await terminal.run(engine);
  const session = decodeSession(counterFlow, await store.load('terminal:local')).session;
  return { printed, session };
}

describe('terminal chat', () => {
  it('prints buttons as a numbered menu and presses one by number or by label', async () => {
    const { printed, session } = await chat(['menu', '2', 'menu', 'CANCEL', 'hello']);
    expect(printed).toContain(
      'Pick one\n[1] ✅ Confirm\nRead the docs: https://example.org/docs\n[2] Cancel\n',
    );
    expect(printed.match(/Cancelled\./g)).toHaveLength(2);
    expect(printed).toContain('You said hello');
    expect(session.seen).toEqual(['menu', 'button', 'menu', 'button', 'hello']);
  });

  it('matches a label typed without its emoji', async () => {
    const { session } = await chat(['menu', 'confirm']);
    expect(session.seen.slice(0, 2)).toEqual(['menu', 'button']);
  });

  it('treats a number as text once a later answer had no menu', async () => {
    const { session } = await chat(['menu', 'something', '1']);
    expect(session.seen).toEqual(['menu', 'something', '1']);
  });

  it('sends commands as commands and renders in the session language', async () => {
    const { printed, session } = await chat(['/lang sw', 'menu', 'ghairi']);
    expect(session.locale).toBe('sw');
    expect(printed).toContain('Lugha imewekwa');
    expect(printed).toContain('[1] Thibitisha');
    expect(printed).toContain('Imeghairiwa.');
    expect(session.seen).toEqual(['command', 'menu', 'button']);
  });

  it('prints its own lines (say) in the language the chat is in now, not the one it started in', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = '';
    output.on('data', (d) => {
      printed += String(d);
    });
    const terminal = createTerminalChannel({ input, output, i18n: loadI18n(localesDir()), locale: 'en' });
    terminal.say('t-pick');
    await terminal.send('local', { texts: [{ id: 't-lang' }] }, 'sw');
    terminal.say('t-pick');
    expect(printed.trim().split('\n')).toEqual(['Pick one', 'Lugha imewekwa', '', 'Chagua moja']);
  });

  it('passes its language as the hint for a new session', async () => {
    const { printed } = await chat(['hi'], 'sw');
    expect(printed).toContain('Ulisema hi');
  });

  it('handles lines strictly in order and ignores blank ones', async () => {
    const { session } = await chat(['inc', '', '  ', 'inc', 'inc']);
    expect(session.count).toBe(3);
  });

  it('after the input ends, waits for an open order of the chat longer than the quiet grace, and prints its update', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = '';
    output.on('data', (d) => {
      printed += String(d);
    });
    let open = 1;
    const asked: string[] = [];
    const terminal = createTerminalChannel({
      input,
      output,
      i18n: loadI18n(localesDir()),
      eofGraceMs: 50,
      maxGraceMs: 5_000,
      openOrders: async (user) => {
        asked.push(user.id);
        return open;
      },
    });
    // The order's update comes well after the grace: only the open order keeps the chat listening.
    setTimeout(() => {
      void terminal.send('local', { texts: [{ id: 't-echo', args: { text: 'paid' } }] }, 'en');
      open = 0;
    }, 400);
    input.end();
    const started = Date.now();
    await terminal.run({ handle: async () => {} } as never);
    expect(printed).toContain('You said paid');
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(asked[0]).toBe('local');
  });

  it('after the input ends, stops waiting at the upper bound even if an order stays open', async () => {
    const input = new PassThrough();
    const terminal = createTerminalChannel({
      input,
      output: new PassThrough(),
      i18n: loadI18n(localesDir()),
      eofGraceMs: 20,
      maxGraceMs: 300,
      openOrders: async () => 1,
    });
    input.end();
    const started = Date.now();
    await terminal.run({ handle: async () => {} } as never);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(3_000);
  });

  it('parses commands with a bot suffix and arguments', () => {
    expect(parseCommand('/Buy@rampbot 500 USDT polygon')).toEqual({
      kind: 'command',
      command: 'buy',
      args: '500 USDT polygon',
    });
    expect(parseCommand('/start')).toEqual({ kind: 'command', command: 'start', args: '' });
    expect(parseCommand('0712345678')).toBeUndefined();
  });
});
