/**
 * Monthly statements in the chat: `/statement` (`/taarifa`, or the Statement button under the
 * history) sends this month's orders as a PDF and a CSV; `/statement october`, `oktoba`,
 * `2026-09` an earlier month. Building the files is the `statement` effect (src/statements/
 * service.ts); this flow only reads the month and says what came of it. A month without orders is
 * said in words, not as empty files.
 */
import * as z from 'zod';
import type { FlowDef, FlowStep } from '../flows/flow.js';
import { at as flowAt, isEffectResult, send, text, unhandled } from '../flows/flow.js';
import type { Session } from '../flows/session.js';
import type { Input, StatementRequest, StatementView } from '../flows/types.js';
import { parseMonth } from './month.js';

export const statementStateSchema = z.object({
  name: z.literal('statement'),
  step: z.enum(['building', 'sent']),
  year: z.number().int().min(2000).max(9999),
  month: z.number().int().min(1).max(12),
});
export type StatementState = z.infer<typeof statementStateSchema>;

const at = flowAt<StatementState>;

/** A month as the texts take it: its number (the texts select its name) and its year as text (not "2,026"). */
export const monthArgs = (m: StatementRequest) => ({ month: m.month, year: String(m.year) });

function build(session: Session, words: string, now: number): FlowStep {
  const parsed = parseMonth(words, now);
  if (!parsed.ok && parsed.reason === 'unknown')
    return { session, effects: [], exit: [text('statements-month-unknown', { words: words.slice(0, 40) })] };
  if (!parsed.ok)
    return { session, effects: [], exit: [text('statements-month-future', { ...monthArgs(parsed.month) })] };
  const { year, month } = parsed.month;
  return at(session, { name: 'statement', step: 'building', year, month }, [
    { type: 'statement', request: { year, month } },
  ]);
}

function sent(session: Session, state: StatementState, view: StatementView): FlowStep {
  if (!view.orders || !view.pdf || !view.csv)
    return { session, effects: [], exit: [text('statements-empty', monthArgs(view))] };
  const caption = [text('statements-caption', { ...monthArgs(view), orders: view.orders })];
  return at(session, { ...state, step: 'sent' }, [
    send(caption, {
      media: { kind: 'document', ref: view.pdf.ref, filename: view.pdf.filename, mime: 'application/pdf' },
    }),
    send([], {
      media: { kind: 'document', ref: view.csv.ref, filename: view.csv.filename, mime: 'text/csv' },
    }),
  ]);
}

function handle(session: Session, state: StatementState, input: Input): FlowStep {
  if (isEffectResult(input)) {
    if (input.kind === 'statement' && state.step === 'building') return sent(session, state, input.statement);
    if (input.kind === 'effectFailed' && input.effect === 'statement' && state.step === 'building')
      return { session, effects: [], exit: [text('statements-failed')] };
    return unhandled(session);
  }
  if (state.step === 'building') return at(session, state, [send([text('buy-please-wait')])]);
  return { session, effects: [], exit: [text('core-not-understood')] };
}

export const statementFlow: FlowDef<StatementState> = {
  name: 'statement',
  prefix: 'stmt',
  commands: ['statement', 'taarifa'],
  keywords: ['statement', 'taarifa'],
  startButtons: ['stmt:'],
  start(session, ctx, how) {
    if (how.button) return build(session, how.button.split(':')[2] ?? '', ctx.now);
    return build(session, how.args?.trim() ?? '', ctx.now);
  },
  handle,
  back: (session) => ({ session, effects: [], exit: [] }),
};
