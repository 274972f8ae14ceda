/**
 * `npm run bench -- steps`: what the conversation benchmark's cycle costs when its code is hot. The
 * app's flows, the session codec and the Telegram rendering, one step after another in a loop over
 * 40 users ("/start", [Settings], [Language], "menu", as in ./conversation.ts), with no I/O. Beside
 * the conversation benchmark's CPU per update it shows how much of an update is the work itself and
 * how much is reaching it cold.
 */
import { appFlows } from '../src/app/flows.js';
import {
  inlineKeyboard,
  joinParagraphs,
  renderHtml,
  renderPlain,
} from '../src/channels/telegram/send/render.js';
import type { Effect, Input } from '../src/flows/types.js';
import { loadI18n } from '../src/i18n/index.js';
import { decodeSession, encodeSession } from '../src/store/session-codec.js';
import type { StoredSession } from '../src/store/types.js';

const CYCLE: Input[] = [
  { kind: 'command', command: 'start', args: '' },
  { kind: 'button', id: 'menu:settings' },
  { kind: 'button', id: 'set:lang' },
  { kind: 'text', text: 'menu' },
];
const USERS = 40;
const ROUNDS = 6;
const STEPS_PER_ROUND = 80_000;

type Part = 'decode' | 'transition' | 'encode' | 'render';
export interface StepFigures {
  /** µs of CPU per step, and per part, in the last round (the earlier ones warm V8 up). */
  cpuUs: number;
  parts: Record<Part, number>;
  messages: number;
}

export function runStepBench(): StepFigures {
  const i18n = loadI18n();
  const stored = new Map<number, StoredSession>();
  const config = { rateTolerancePct: 1, project: 'bench' };
  let figures: StepFigures | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    const parts: Record<Part, number> = { decode: 0, transition: 0, encode: 0, render: 0 };
    let messages = 0;
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < STEPS_PER_ROUND; i++) {
      const u = i % USERS;
      const input = CYCLE[Math.floor(i / USERS) % CYCLE.length] as Input;
      let t = performance.now();
      const lap = (part: Part) => {
        const now = performance.now();
        parts[part] += now - t;
        t = now;
      };
      const before = stored.get(u) ?? { rev: 0 };
      const { session } = decodeSession(appFlows, before);
      lap('decode');
      const step = appFlows.transition(session, input, {
        now: Date.now(),
        user: { channel: 'telegram', id: String(u) },
        config,
      });
      lap('transition');
      stored.set(u, { rev: before.rev + 1, ...encodeSession(step.state) });
      lap('encode');
      messages += render(i18n, step.state.locale, step.effects);
      lap('render');
    }
    const cpu = process.cpuUsage(cpu0);
    const per = (ms: number) => (ms * 1000) / STEPS_PER_ROUND;
    figures = {
      cpuUs: (cpu.user + cpu.system) / STEPS_PER_ROUND,
      parts: {
        decode: per(parts.decode),
        transition: per(parts.transition),
        encode: per(parts.encode),
        render: per(parts.render),
      },
      messages,
    };
  }
  return figures as StepFigures;
}

/** Renders a step's messages as the Telegram adapter does (text paragraphs and keyboard); returns how many. */
function render(
  i18n: ReturnType<typeof loadI18n>,
  locale: Parameters<typeof renderHtml>[1],
  effects: Effect[],
) {
  let n = 0;
  for (const e of effects) {
    if (e.type !== 'send') continue;
    joinParagraphs(e.message.texts.map((text) => renderHtml(i18n, locale, text)));
    inlineKeyboard(e.message.buttons, (text) => renderPlain(i18n, locale, text));
    n++;
  }
  return n;
}

export function formatStepFigures(f: StepFigures): string {
  const n = (x: number) => x.toFixed(1);
  return [
    `Steps benchmark: the conversation benchmark's cycle in a loop over ${USERS} users, hot, no I/O (${ROUNDS} rounds of ${STEPS_PER_ROUND.toLocaleString('en')} steps; the last one's figures)`,
    `  CPU per step           ${n(f.cpuUs)} µs: session decode ${n(f.parts.decode)}, flow transition ${n(f.parts.transition)}, encode ${n(f.parts.encode)}, reply rendering ${n(f.parts.render)} (${(f.messages / STEPS_PER_ROUND).toFixed(2)} messages a step)`,
  ].join('\n');
}
