/** `npm run bench`: runs the benchmarks and prints their figures (nothing is asserted). */
import { benchOptionsFromEnv, formatTrackerFigures, runTrackerBench } from './tracker.js';

const figures = await runTrackerBench(benchOptionsFromEnv());
console.log(formatTrackerFigures(figures));
process.exit(0);
