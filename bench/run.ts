/**
 * `npm run bench`: runs the benchmarks and prints their figures (nothing is asserted).
 * `npm run bench -- tracker` or `npm run bench -- conversation` runs one.
 */
import {
  conversationOptionsFromEnv,
  formatConversationFigures,
  runConversationBench,
} from './conversation.js';
import { benchOptionsFromEnv, formatTrackerFigures, runTrackerBench } from './tracker.js';

const BENCHMARKS: Record<string, () => Promise<string>> = {
  tracker: async () => formatTrackerFigures(await runTrackerBench(benchOptionsFromEnv())),
  conversation: async () =>
    formatConversationFigures(await runConversationBench(conversationOptionsFromEnv())),
};

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in BENCHMARKS));
if (unknown.length) {
  console.error(`Unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(BENCHMARKS).join(', ')}`);
  process.exit(2);
}
for (const name of asked.length ? asked : Object.keys(BENCHMARKS)) {
  console.log(await BENCHMARKS[name]!());
  console.log();
}
process.exit(0);
