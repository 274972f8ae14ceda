/**
 * The operations kit in deploy/: the alert rules pass `promtool check rules` and their own unit tests
 * (`promtool test rules`: each alert fires on the series that should raise it); every metric the rules
 * and the Grafana dashboard name is one the app exports (read from a running app's /metrics, with
 * Telegram, the WhatsApp Cloud API and Redis on); the proxy keeps /metrics off the internet and Redis
 * runs with AOF. Without promtool (Debian's `prometheus` package) its two tests are skipped with a note;
 * .ci/run installs it, so they run in CI.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, startApp } from '../../src/app/start.js';
import { createWhatsAppMetrics } from '../../src/channels/whatsapp/metrics.js';
import { loadConfig } from '../../src/config/env.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { FakeWhatsAppGraphApi } from '../fakes/whatsapp-graph-api.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';

const RULES = 'deploy/prometheus/rampchat-alerts.yml';
const RULE_TESTS = 'deploy/prometheus/rampchat-alerts.test.yml';
const DASHBOARD = 'deploy/grafana/rampchat-dashboard.json';

const hasPromtool = spawnSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' }).status === 0;
if (!hasPromtool)
  console.warn(
    'skipping the promtool tests of the alert rules: promtool is missing (apt-get install prometheus; .ci/run installs it)',
  );
const promtool = (...args: string[]) => spawnSync('promtool', args, { encoding: 'utf8' });

describe('alert rules', () => {
  it.skipIf(!hasPromtool)('pass promtool check rules', () => {
    const r = promtool('check', 'rules', RULES);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/SUCCESS: \d+ rules found/);
  });

  it.skipIf(!hasPromtool)(
    'fire on the series that should raise them, and only those (promtool test rules)',
    () => {
      const r = promtool('test', 'rules', RULE_TESTS);
      expect(r.status, r.stdout + r.stderr).toBe(0);
    },
  );

  it('cover each thing an operator must hear about', () => {
    const alerts = [...readFileSync(RULES, 'utf8').matchAll(/- alert: (\w+)/g)].map((m) => m[1]);
    expect(alerts).toEqual(
      expect.arrayContaining([
        'RampchatOrdersPastHorizon',
        'RampchatEscalations',
        'RampchatRampErrorRate',
        'RampchatRedisDown',
        'RampchatWebhookErrors',
        'RampchatTelegramThrottled',
        'RampchatWhatsAppThrottled',
      ]),
    );
  });
});

describe('metrics named in the rules and the dashboard', () => {
  const TOKEN = '123456789:OpsKitMetricsToken_abcdefghijklmnop';
  const CLOUD = {
    token: `EAAG${'k'.repeat(36)}`,
    phoneNumberId: '106540352242111',
    appSecret: 'ops-kit-app-secret-0123456789abcdef',
  };
  const prefix = uniquePrefix('opskit');
  let tg: FakeTelegramBotApi;
  let graph: FakeWhatsAppGraphApi;
  let app: App;
  let exported: Set<string>;

  beforeAll(async () => {
    tg = await FakeTelegramBotApi.start({ token: TOKEN });
    graph = await FakeWhatsAppGraphApi.start(CLOUD);
    app = await startApp(
      loadConfig({
        HTTP_PORT: '0',
        HTTP_HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        REDIS_URL: testRedisUrl(),
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_API_ROOT: tg.url,
        WHATSAPP_ENABLED: '1',
        WHATSAPP_TRANSPORT: 'cloud',
        WHATSAPP_CLOUD_TOKEN: CLOUD.token,
        WHATSAPP_PHONE_NUMBER_ID: CLOUD.phoneNumberId,
        WHATSAPP_APP_SECRET: CLOUD.appSecret,
        WHATSAPP_VERIFY_TOKEN: 'ops-kit-verify-token-0123',
        WHATSAPP_GRAPH_API_URL: graph.graphUrl,
      }),
      { stdin: new PassThrough(), stdout: new PassThrough(), redisPrefix: prefix },
    );
    const address = app.http.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    // The app's families, their series' suffixes, and the baileys transport's (on when it is chosen).
    const baileys = new Registry();
    createWhatsAppMetrics(baileys);
    exported = new Set<string>();
    for (const m of [
      ...text.matchAll(/^# TYPE (\S+) (\S+)$/gm),
      ...(await baileys.metrics()).matchAll(/^# TYPE (\S+) (\S+)$/gm),
    ]) {
      const [, name, type] = m as unknown as [string, string, string];
      exported.add(name);
      if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) exported.add(name + s);
    }
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await tg?.close();
    await graph?.close();
    const redis = await connectTestRedis();
    await flushPrefix(redis, prefix);
    await redis.quit();
  });

  const named = (file: string) => new Set(readFileSync(file, 'utf8').match(/\brampchat_[a-z0-9_]+\b/g) ?? []);

  it('the app exports the metrics the kit is built on', () => {
    for (const name of [
      'rampchat_tracker_escalations_total',
      'rampchat_ramp_calls_total',
      'rampchat_redis_up',
      'rampchat_http_requests_total',
      'rampchat_telegram_throttled_total',
      'rampchat_whatsapp_cloud_failed_calls_total',
    ])
      expect(exported, name).toContain(name);
  });

  it.each([RULES, DASHBOARD])('every metric in %s exists in the app', (file) => {
    const names = named(file);
    expect(names.size).toBeGreaterThan(8);
    expect([...names].filter((n) => !exported.has(n))).toEqual([]);
  });

  it("only Prometheus's own `up` besides", () => {
    const text = readFileSync(RULES, 'utf8');
    const exprs = [...text.matchAll(/expr: (?:\|\n)?([\s\S]*?)\n\s+(?:for|labels):/g)].map((m) => m[1] ?? '');
    const others = exprs
      .flatMap((e) => e.match(/\b[a-z_][a-z0-9_]*(?=\{|\[| *[=!<>]=?\s*\d)/g) ?? [])
      .filter((n) => !n.startsWith('rampchat_') && !['by', 'without', 'le'].includes(n));
    expect([...new Set(others)]).toEqual(['up']);
  });
});

describe('dashboard and compose', () => {
  it('the dashboard is Grafana JSON whose every panel queries Prometheus', () => {
    const dash = JSON.parse(readFileSync(DASHBOARD, 'utf8'));
    expect(dash.uid).toBe('rampchat');
    expect(dash.panels.length).toBeGreaterThan(8);
    for (const p of dash.panels) {
      expect(p.targets.length, p.title).toBeGreaterThan(0);
      for (const t of p.targets) expect(t.expr, p.title).toMatch(/rampchat_/);
    }
  });

  it('an optional sentinel profile: a replica and three Sentinels watching the primary, the app on them from one setting', () => {
    const compose = readFileSync('docker-compose.yml', 'utf8');
    // The Sentinels share one anchored definition, in the sentinel profile, each monitoring `redis` with a quorum of 2.
    expect(compose).toMatch(
      /^x-sentinel: &sentinel\n {2}image: redis:7-alpine\n {2}profiles: \[sentinel\]$/m,
    );
    for (const n of [1, 2, 3]) expect(compose).toMatch(new RegExp(`^ {2}sentinel-${n}: \\*sentinel$`, 'm'));
    expect(compose).toMatch(/sentinel monitor mymaster redis 6379 2\\n/);
    expect(compose).toMatch(/exec redis-server \/tmp\/sentinel\.conf --sentinel/);
    const replica = /^ {2}redis-replica:\n((?: {4}.*\n|\n)+?)(?=^ {2}\S)/m.exec(compose)?.[1] ?? '';
    expect(replica).toMatch(/profiles: \[sentinel\]/);
    expect(replica).toMatch(/"--replicaof", "redis", "6379"/);
    expect(replica).toMatch(/"--appendonly", "yes"/);
    expect(compose).toMatch(/^ {2}redis-replica-data:$/m);
    // Without the profile nothing changes: the app's REDIS_URL defaults to the one Redis.
    expect(compose).toMatch(/REDIS_URL: \$\{RAMPCHAT_REDIS_URL:-redis:\/\/redis:6379\}/);
    const example = readFileSync('.env.example', 'utf8');
    expect(example).toMatch(
      /redis\+sentinel:\/\/sentinel-1:26379,sentinel-2:26379,sentinel-3:26379\/mymaster/,
    );
    // No tab anywhere (YAML forbids them in indentation) and every service is indented by two spaces.
    expect(compose).not.toMatch(/\t/);
  });

  it('the proxy terminates TLS for DOMAIN, keeps /metrics inside, and Redis keeps an AOF', () => {
    const compose = readFileSync('docker-compose.yml', 'utf8');
    const caddy = readFileSync('deploy/Caddyfile', 'utf8');
    expect(compose).toMatch(/image: caddy:/);
    expect(compose).toContain('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro');
    expect(compose).toMatch(/"443:443"/);
    expect(compose).toMatch(/--appendonly", "yes"/);
    expect(compose).toMatch(/NODE_ENV: production/);
    expect(caddy).toMatch(/^\{\$DOMAIN\} \{/m);
    expect(caddy).toMatch(/@metrics path \/metrics/);
    expect(caddy).toMatch(/respond @metrics 404/);
    // Caddy itself accepts the file, when its binary is here.
    const validate = spawnSync('sh', ['-c', 'command -v caddy'], { encoding: 'utf8' });
    if (validate.status === 0)
      execFileSync('caddy', ['validate', '--adapter', 'caddyfile', '--config', 'deploy/Caddyfile'], {
        env: { ...process.env, DOMAIN: 'rampchat.example.com' },
      });
  });
});
