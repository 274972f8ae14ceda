/**
 * One setup of the conversation benchmark in its own process (see ./conversation.ts): argv is the
 * setup (`stack` or `floor`) and the options as JSON. Says `{ ready }` once built, runs on `{ go }`,
 * and sends `{ result }`.
 */
import { type ConversationBenchOptions, runSetup } from './conversation.js';

const [kind, json] = process.argv.slice(2);
if (kind !== 'stack' && kind !== 'floor' && kind !== 'control') throw new Error(`unknown setup ${kind}`);
const opts = JSON.parse(json ?? '{}') as ConversationBenchOptions;
const go = new Promise<void>((resolve) => process.on('message', (m: { go?: boolean }) => m.go && resolve()));
const result = await runSetup(kind, opts, () => {
  process.send?.({ ready: true });
  return go;
});
process.send?.({ result }, undefined, {}, () => process.exit(0));
