/**
 * Every message id the code names exists in English and in Kiswahili: a scan of src/**\/*.ts for
 * string literals shaped like ids, plus the ids the code builds from a known list.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COMMANDS } from '../../src/channels/telegram/index.js';
import { LOCALES } from '../../src/chat/types.js';
import { RAMP_REFUSAL_CODES, refusalCodeTextId } from '../../src/domain/refusals.js';
import { DEFAULT_LOCALES_DIR, loadI18n } from '../../src/i18n/index.js';
import { refusalTextId, SELL_REFUSALS } from '../../src/sell/flow/reasons.js';

const SRC = join(DEFAULT_LOCALES_DIR, '..', 'src');
const ID =
  /(['"`])((?:core|buy|quote|sell|settings|history|help|support|tracker|engine|terminal|tg|wa|charts|receipts)-[a-z0-9-]+)\1/g;
/** Literals of the same shape that are not texts: logger component names, effect purposes. */
const NOT_TEXT = /(component|[pP]urpose):\s*$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** id -> the first file naming it. */
function idsInCode(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sourceFiles(SRC)) {
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(ID)) {
      const id = m[2]!;
      const before = source.slice(Math.max(0, m.index - 30), m.index);
      // A trailing dash is a prefix the code completes (covered below), not an id.
      if (id.endsWith('-') || NOT_TEXT.test(before)) continue;
      if (!found.has(id)) found.set(id, file.slice(SRC.length + 1));
    }
  }
  return found;
}

/** The members of a string-literal union written in a source file, e.g. `senderProblem?: 'a' | 'b'`. */
function unionMembers(file: string, field: string): string[] {
  const source = readFileSync(join(SRC, file), 'utf8');
  const decl = new RegExp(`${field}\\??:\\s*((?:'[a-z_]+'\\s*\\|?\\s*)+);`).exec(source);
  return [...(decl?.[1] ?? '').matchAll(/'([a-z_]+)'/g)].map((m) => m[1]!);
}

describe('message ids named in the code', () => {
  const i18n = loadI18n();
  const missing = (ids: Iterable<string>) =>
    [...ids].flatMap((id) => LOCALES.filter((l) => !i18n.hasIn(l, id)).map((l) => `${l}: ${id}`));

  it('every id literal in src exists in both locales', () => {
    const used = idsInCode();
    expect(used.size).toBeGreaterThan(300);
    const absent = [...used]
      .filter(([id]) => missing([id]).length > 0)
      .map(([id, file]) => `${id} (${file})`);
    expect(absent).toEqual([]);
  });

  it('ids built from a list exist in both locales: refusals, sender problems, bot commands', () => {
    const senderProblems = unionMembers('flows/capability-types.ts', 'senderProblem');
    expect(senderProblems.length).toBeGreaterThan(2);
    const built = [
      ...SELL_REFUSALS.map(refusalTextId),
      ...RAMP_REFUSAL_CODES.map(refusalCodeTextId),
      ...senderProblems.map((p) => `sell-sender-${p.replace(/_/g, '-')}`),
      ...DEFAULT_COMMANDS.map((name) => `tg-command-${name}`),
      ...['24h', '7d', '30d'].map((range) => `charts-title-${range}`),
      ...['buy', 'sell'].flatMap((side) => [`charts-${side}-now`, `charts-${side}-change`]),
    ];
    expect(missing(built)).toEqual([]);
  });

  it('both locales hold the same ids', () => {
    const [en, sw] = LOCALES.map((l) => new Set(i18n.ids(l)));
    expect([...en!].filter((id) => !sw!.has(id))).toEqual([]);
    expect([...sw!].filter((id) => !en!.has(id))).toEqual([]);
  });
});
