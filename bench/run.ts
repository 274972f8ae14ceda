/**
 * `npm run bench`: runs the benchmarks and prints their figures (nothing is asserted).
 * `npm run bench -- start`, `-- tracker`, `-- conversation`, `-- steps` or `-- alerts` runs one.
 */

import { formatAlertFigures, runAlertBench } from './alerts.js';
import { ensureBuilt } from './build.js';
import { conversationOptionsFromEnv, formatConversationRuns, runConversationRuns } from './conversation.js';
import { formatStartFigures, runStartBench } from './start.js';
import { formatStepFigures, runStepBench } from './steps.js';
import { benchOptionsFromEnv, formatTrackerFigures, runTrackerBench } from './tracker.js';

const BENCHMARKS: Record<string, () => Promise<string>> = {
  start: async () => {
    ensureBuilt();
    return formatStartFigures(await runStartBench());
  },
  tracker: async () => formatTrackerFigures(await runTrackerBench(benchOptionsFromEnv())),
  conversation: async () => formatConversationRuns(await runConversationRuns(conversationOptionsFromEnv())),
  steps: async () => formatStepFigures(runStepBench()),
  alerts: async () => formatAlertFigures(await runAlertBench()),
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
