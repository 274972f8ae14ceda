/**
 * Starts the slowest test files first, so on a fresh clone (no vitest cache to sort by) a long file
 * does not start last and hold the run open alone. The list is the files over 10 s in a full run on
 * 2 cores (2026-11-28), slowest first; the rest keep vitest's own order (a cache's durations, else
 * size). A file missing from the list only runs later than it could.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOWEST = [
  'chaos/short',
  'support/desk-budget.integration',
  'replicas/outbox-stop',
  'sell/unreported-deposit',
  'journeys/readme-demos',
  'deploy/bundle',
  'app/history-owner',
  'limits/stk-limits',
  'replicas/polling-kill',
  'burst/short',
  'outbound/telegram-pacing',
  'outbound/paid-broadcast',
  'channels/telegram/polling-outage',
  'journeys/whatsapp-transports',
  'journeys/save-and-alert-channels',
  'savings/journey',
  'journeys/amounts',
  'channels/telegram/adapter',
  'tracker/onramp',
  'channels/telegram/webhook-ack',
  'tracker/crash',
  'recovery/doubted-filing',
  'store/sentinel-failover',
  'recovery/unfinished',
  'outbound/whatsapp-pacing',
  'e2e/sell-browser',
];

const rank = (spec: TestSpecification): number => {
  const id = spec.moduleId.replace(/\\/g, '/');
  const i = SLOWEST.findIndex((name) => id.endsWith(`/test/${name}.test.ts`));
  return i === -1 ? SLOWEST.length : i;
};

export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Vitest keeps each project's files together; within each, the slowest go first (the sort is
    // stable: unlisted files keep vitest's order among themselves).
    const byProject = new Map<string, TestSpecification[]>();
    for (const spec of await super.sort(files)) {
      const group = byProject.get(spec.project.name) ?? [];
      group.push(spec);
      byProject.set(spec.project.name, group);
    }
    return [...byProject.values()].flatMap((group) => group.sort((a, b) => rank(a) - rank(b)));
  }
}
