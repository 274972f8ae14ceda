/**
 * `npm run figures [-- start conversation tracker alerts]`: runs the benchmarks and writes what they
 * printed into README.md, each between its `<!-- figures:<name> -->` and `<!-- /figures:<name> -->`
 * marks, under the command, the date and the machine, so no figure in the README is older than the
 * run that made it (the conversation's are the median of five runs, BENCH_RUNS). Run it on an
 * idle machine: the figures move with other load (FIGURES_NOTE, when set, is written under the
 * command line, e.g. to say the machine was not idle).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const README = join(ROOT, 'README.md');
const ALL = ['start', 'conversation', 'tracker', 'alerts'];

const asked = process.argv.slice(2);
const names = asked.length
  ? asked
  : ALL.filter((n) => readFileSync(README, 'utf8').includes(`<!-- figures:${n} -->`));
const unknown = names.filter((n) => !ALL.includes(n));
if (unknown.length) {
  console.error(`Unknown benchmark ${unknown.join(', ')}; choose from ${ALL.join(', ')}`);
  process.exit(2);
}

function redisVersion(): string {
  try {
    return execFileSync('redis-server', ['--version'], { encoding: 'utf8' }).match(/v=([\d.]+)/)?.[1] ?? '?';
  } catch {
    return '?';
  }
}

const machine = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.versions.node.split('.').slice(0, 2).join('.')}, Redis ${redisVersion()}`;

/** Settings a benchmark's figures are taken with: the conversation's median of five runs. */
const SETTINGS: Record<string, Record<string, string>> = {
  conversation: { BENCH_RUNS: process.env.BENCH_RUNS ?? '5' },
};

for (const name of names) {
  const settings = SETTINGS[name] ?? {};
  const command = `${Object.entries(settings)
    .map(([k, v]) => `${k}=${v} `)
    .join('')}npm run bench -- ${name}`;
  console.error(`figures: ${command}`);
  // A process of its own per benchmark, as a person running the command would have it.
  const printed = execFileSync('npx', ['tsx', 'bench/run.ts', name], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...settings },
  }).trim();
  const date = new Date().toISOString().slice(0, 10);
  const block = [
    `<!-- figures:${name} -->`,
    `\`${command}\`, run on ${date} by \`npm run figures\` on ${machine}:`,
    ...(process.env.FIGURES_NOTE ? ['', process.env.FIGURES_NOTE] : []),
    '',
    '```text',
    printed,
    '```',
    `<!-- /figures:${name} -->`,
  ].join('\n');
  const readme = readFileSync(README, 'utf8');
  const marks = new RegExp(`<!-- figures:${name} -->[\\s\\S]*?<!-- /figures:${name} -->`);
  if (!marks.test(readme)) {
    console.error(
      `README.md has no <!-- figures:${name} --> … <!-- /figures:${name} --> block; printed:\n${printed}`,
    );
    process.exitCode = 1;
    continue;
  }
  writeFileSync(
    README,
    readme.replace(marks, () => block),
  );
  console.error(`figures: README.md's ${name} figures refreshed`);
}
