/**
 * The order journal keeps what recovery needs and no more (issue #24): its files are 0600 in a 0700
 * folder (an older version's wider modes narrowed at open), phone numbers and chat ids (a WhatsApp id
 * is a phone number) are never in the file bytes yet read back whole, an older version's clear-text
 * journal is still read and moved into the encrypted files, and entries past the horizon are deleted
 * while the process runs. Real files in a temporary folder.
 */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/env.js';
import { startIssues } from '../../src/config/production.js';
import { createFileJournal, type IntendedOrder } from '../../src/recovery/index.js';
import { waitFor } from '../helpers/wait.js';

const PHONE = '254712345678';
const WA_ID = '254798765432';
const mode = (p: string) => statSync(p).mode & 0o777;
const order = (over: Partial<IntendedOrder> = {}): IntendedOrder => ({
  side: 'onramp',
  user: { channel: 'whatsapp', id: WA_ID },
  network: 'polygon',
  walletAddress: '0x52908400098527886e0f7030069857d2e4169ee7',
  token: { symbol: 'USDT', address: '0xc2132d05d31c914a87c6611c10748aeb04b58e8f', decimals: 6 },
  amountKes: 700,
  phone: PHONE,
  ...over,
});
/** Every byte the journal left in its folder (the local key aside). */
const journalBytes = (dir: string) =>
  readdirSync(dir)
    .filter((n) => n.endsWith('.jsonl') || n.includes('.migrating-'))
    .map((n) => readFileSync(join(dir, n), 'utf8'))
    .join('');

describe('the order journal on disk', () => {
  it("is 0600 in a 0700 folder, and an older version's wider modes are narrowed at open", async () => {
    const root = mkdtempSync(join(tmpdir(), 'rampchat-journal-modes-'));
    const fresh = join(root, 'fresh');
    await createFileJournal(join(fresh, 'orders.jsonl')).intent(order());
    expect(mode(fresh)).toBe(0o700);
    for (const n of readdirSync(fresh)) expect(mode(join(fresh, n))).toBe(0o600);

    // As an older version left it: 0755 folder, 0644 files.
    const old = join(root, 'old');
    mkdirSync(old, { mode: 0o755 });
    chmodSync(old, 0o755);
    writeFileSync(join(old, 'orders-20200101T000000Z.jsonl'), '', { mode: 0o644 });
    chmodSync(join(old, 'orders-20200101T000000Z.jsonl'), 0o644);
    await createFileJournal(join(old, 'orders.jsonl')).read(0);
    expect(mode(old)).toBe(0o700);
    for (const n of readdirSync(old)) expect(mode(join(old, n))).toBe(0o600);
  });

  it('holds no phone number or WhatsApp id in clear, and reads them back for recovery', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rampchat-journal-clear-'));
    const journal = createFileJournal(join(dir, 'orders.jsonl'), { secret: 'x'.repeat(40) });
    await journal.intent(order());
    await journal.order({ ...order(), orderId: 'D-1', createdAt: 1 });
    await journal.sale({
      id: 'a'.repeat(32),
      user: { channel: 'whatsapp', id: WA_ID },
      phone: PHONE,
      total: '7.5',
    });
    await journal.final('D-1');

    const bytes = journalBytes(dir);
    expect(bytes).toContain('"kind":"order"');
    expect(bytes).toContain('0x52908400098527886e0f7030069857d2e4169ee7'); // the wallet recovery looks up
    expect(bytes).not.toMatch(/2547\d{8}|712345678|798765432/);

    const entries = await journal.read(0);
    expect(entries.map((e) => e.kind)).toEqual(['intent', 'order', 'sale', 'final']);
    expect(entries[0]).toMatchObject({ order: { phone: PHONE, user: { channel: 'whatsapp', id: WA_ID } } });
    expect(entries[1]).toMatchObject({ order: { orderId: 'D-1', phone: PHONE, user: { id: WA_ID } } });
    expect(entries[2]).toMatchObject({ intent: { phone: PHONE, user: { id: WA_ID } } });

    // The same secret in another process reads it; another secret cannot, and says so.
    expect(await createFileJournal(join(dir, 'orders.jsonl'), { secret: 'x'.repeat(40) }).read(0)).toEqual(
      entries,
    );
    const errors: string[] = [];
    const wrong = createFileJournal(join(dir, 'orders.jsonl'), {
      secret: 'y'.repeat(40),
      onError: (e) => errors.push(e.message),
    });
    expect((await wrong.read(0)).map((e) => e.kind)).toEqual(['final']);
    expect(errors.join()).toMatch(/3 journal entries could not be decrypted/);
  });

  it('without a key, generates one beside the journal (0600) and keeps using it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rampchat-journal-localkey-'));
    await createFileJournal(join(dir, 'orders.jsonl')).intent(order());
    expect(mode(join(dir, 'orders.key'))).toBe(0o600);
    expect(readFileSync(join(dir, 'orders.key'), 'utf8')).toMatch(/^[0-9a-f]{64}$/);
    expect(journalBytes(dir)).not.toMatch(/2547\d{8}/);
    const again = await createFileJournal(join(dir, 'orders.jsonl')).read(0);
    expect(again[0]).toMatchObject({ order: { phone: PHONE, user: { id: WA_ID } } });
  });

  it("reads an older version's clear-text orders.jsonl and moves it, encrypted, into its files", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rampchat-journal-migrate-'));
    const at = Date.now() - 60_000;
    const legacy = [
      { kind: 'intent', at, order: order() },
      { kind: 'order', at: at + 1, v: 2, order: { ...order(), orderId: 'D-7', createdAt: at } },
    ];
    writeFileSync(
      join(dir, 'orders.jsonl'),
      `${legacy.map((e) => JSON.stringify(e)).join('\n')}\n{"kind":"or`,
      {
        mode: 0o644,
      },
    );
    const journal = createFileJournal(join(dir, 'orders.jsonl'), { secret: 'k'.repeat(32) });
    const entries = await journal.read(0);
    expect(entries).toHaveLength(2);
    expect(entries[1]).toMatchObject({
      kind: 'order',
      order: { orderId: 'D-7', phone: PHONE, user: { id: WA_ID } },
    });
    expect(readdirSync(dir)).not.toContain('orders.jsonl');
    expect(journalBytes(dir)).not.toMatch(/2547\d{8}/);
    for (const n of readdirSync(dir)) expect(mode(join(dir, n))).toBe(0o600);
  });

  it('drops entries past the horizon while running, not only at start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rampchat-journal-prune-'));
    let now = Date.UTC(2026, 0, 1, 10, 0, 0);
    const journal = createFileJournal(join(dir, 'orders.jsonl'), {
      secret: 's'.repeat(32),
      now: () => now,
      horizonMs: 60_000,
      segmentMs: 10_000,
      pruneEveryMs: 20,
    });
    try {
      await journal.intent(order({ amountKes: 100 }));
      now += 30_000;
      await journal.intent(order({ amountKes: 200 }));
      expect(readdirSync(dir).filter((n) => n.endsWith('.jsonl'))).toHaveLength(2);
      // The process keeps running; the first entry passes the horizon, the second not yet.
      now += 45_000;
      await waitFor(
        'the first hour file pruned',
        () => readdirSync(dir).filter((n) => n.endsWith('.jsonl')).length === 1,
        5_000,
      );
      expect((await journal.read(0)).map((e) => e.kind === 'intent' && e.order.amountKes)).toEqual([200]);
      now += 60_000;
      await waitFor(
        'every file pruned',
        () => readdirSync(dir).filter((n) => n.endsWith('.jsonl')).length === 0,
        5_000,
      );
      // Appends go on after pruning.
      await journal.final('D-9');
      expect(await journal.read(0)).toMatchObject([{ kind: 'final', orderId: 'D-9' }]);
    } finally {
      journal.close();
    }
  });
});

describe('JOURNAL_KEY', () => {
  it('is required in production with Redis (the journal would otherwise hold a key beside itself), and 32+ characters', () => {
    const prod = loadConfig({ NODE_ENV: 'production', REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(startIssues(prod).filter((i) => i.startsWith('JOURNAL_KEY'))).toHaveLength(1);
    expect(
      startIssues(
        loadConfig({ NODE_ENV: 'production', JOURNAL_KEY: '5d2e9b7a1c4f8036a9e2b5d7c1f4a8e3' }),
      ).some((i) => i.startsWith('JOURNAL_KEY')),
    ).toBe(false);
    expect(() => loadConfig({ JOURNAL_KEY: 'short' })).toThrow(/JOURNAL_KEY/);
    expect(loadConfig({ JOURNAL_KEY: 'k'.repeat(32) }).JOURNAL_KEY).toBe('k'.repeat(32));
  });
});
