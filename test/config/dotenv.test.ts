/**
 * The app and the doctor read `.env` from the working directory themselves (a server without docker
 * compose runs what its file says), the environment taking precedence, and one run names every
 * refusal: values that do not parse beside what production needs, and secrets that are long but
 * guessable.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeSources, loadDotEnv } from '../../src/config/dotenv.js';
import { weakSecret } from '../../src/config/production.js';
import { settingsIssues } from '../../src/config/refusals.js';

const root = resolve('.');
const names = (issues: string[]) => issues.map((i) => i.slice(0, i.indexOf(':')));
const dirWith = (dotenv: string) => {
  const dir = mkdtempSync(join(tmpdir(), 'rampchat-env-'));
  writeFileSync(join(dir, '.env'), dotenv);
  return dir;
};

function run(script: string, cwd: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [join(root, 'scripts', script)], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HTTP_PORT: '0', DOCTOR_TIMEOUT_MS: '2000', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end('');
  });
}

const FILLED = [
  'NODE_ENV=production',
  'RAMP_BASE_URL=https://api.ramp.example',
  'RAMP_API_KEY=live-key-12345678',
  `TELEGRAM_BOT_TOKEN=123456789:${'A'.repeat(35)}`,
  '# a comment, and a value with spaces',
  'RAMP_PROJECT="my project"',
].join('\n');

describe('.env in the working directory', () => {
  it('is read under the environment, which wins, and the sources are named without values', () => {
    const dir = dirWith('A_ONE=1\nRAMP_PROJECT=from-file\nLOG_LEVEL=warn\n');
    const env: NodeJS.ProcessEnv = { LOG_LEVEL: 'error', HTTP_PORT: '9' };
    const sources = loadDotEnv(env, dir);
    expect(env).toMatchObject({ A_ONE: '1', RAMP_PROJECT: 'from-file', LOG_LEVEL: 'error' });
    expect(sources.overridden).toEqual(['LOG_LEVEL']);
    const line = describeSources(sources, env) ?? '';
    expect(line).toContain(`2 from ${join(dir, '.env')} (A_ONE, RAMP_PROJECT)`);
    expect(line).toContain('from the environment (HTTP_PORT, LOG_LEVEL)');
    expect(line).toContain('the environment overrides the file for LOG_LEVEL');
    expect(line).not.toMatch(/from-file|warn|error\b/);
    // ENV_FILE= reads none; a named file that is missing is an error, not a silent sandbox.
    expect(loadDotEnv({ ENV_FILE: '' }, dir).fromFile).toEqual([]);
    expect(() => loadDotEnv({ ENV_FILE: 'nope.env' }, dir)).toThrow(/ENV_FILE/);
  });

  it('npm start with a production .env and no environment refuses, naming every gap at once', async () => {
    const r = await run(
      'start.mjs',
      dirWith(`${FILLED}\nMETRICS_TOKEN=short\nJOURNAL_KEY=${'a'.repeat(40)}\n`),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/will not start in production/);
    // The value that does not parse and the production gaps come in one run.
    for (const name of ['METRICS_TOKEN', 'JOURNAL_KEY', 'RAMP_API_SECRET', 'REDIS_URL', 'PUBLIC_URL'])
      expect(r.stderr).toContain(`  - ${name}: `);
    expect(r.stderr).toMatch(/JOURNAL_KEY: too uniform.*openssl rand -hex 32/);
    expect(r.stdout).toBe('');
  });

  it('the environment overrides the file: NODE_ENV=development runs the local sandbox', async () => {
    const dir = dirWith('NODE_ENV=production\nTERMINAL_EOF_GRACE_MS=0\n');
    const r = await run('start.mjs', dir, { NODE_ENV: 'development' });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /settings: 1 from .*\.env \(TERMINAL_EOF_GRACE_MS\); 3 from the environment \(.*NODE_ENV\)/,
    );
    expect(r.stderr).toContain('the environment overrides the file for NODE_ENV');
    expect(r.stdout).toMatch(/sandbox/i);
  });

  it('npm run doctor reads the same file: a production .env is not "All configured parts answer"', async () => {
    const r = await run('doctor.mjs', dirWith(FILLED));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/settings\s+FAIL\s+RAMP_API_SECRET/);
    expect(r.stdout).not.toContain('All configured parts answer');
  });
});

describe('every refusal at once', () => {
  it('a short secret no longer hides the other gaps', () => {
    const { issues } = settingsIssues({
      NODE_ENV: 'production',
      METRICS_TOKEN: 'x',
      WHATSAPP_APP_SECRET: 'y',
    });
    expect(names(issues)).toEqual([
      'METRICS_TOKEN',
      'WHATSAPP_APP_SECRET',
      'RAMP_BASE_URL',
      'RAMP_API_KEY',
      'RAMP_API_SECRET',
      'TELEGRAM_BOT_TOKEN',
      'REDIS_URL',
      'PUBLIC_URL',
      'JOURNAL_KEY',
    ]);
  });

  it('refuses guessable secrets of any length and keeps random ones', () => {
    for (const bad of [
      'a'.repeat(64),
      'abcd'.repeat(16),
      '0123456789abcdef'.repeat(2),
      'aaaaaaaabbbbbbbbccccccccdddddddd',
    ])
      expect(weakSecret(bad, true), bad).toMatch(/openssl rand -hex 32/);
    expect(
      weakSecret('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', true),
    ).toBeUndefined();
    expect(weakSecret('Zq3k_Vb9-Lm2XwT7pR5nHs8cYd4GfJ6a', true)).toBeUndefined();
    // An issuer's secret is only refused when plainly not random.
    expect(weakSecret('live-secret-0123456789abcdef', false)).toBeUndefined();
    expect(weakSecret('x'.repeat(32), false)).toMatch(/issuer/);
  });
});
