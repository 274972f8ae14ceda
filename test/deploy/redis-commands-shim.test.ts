/**
 * The build's lazy command table for node-redis (scripts/build-shims/redis-commands.mjs): the same
 * commands, each module required on its first use, none at load.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { runInThisContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script, plain JavaScript without types
import { lazyCommandTable } from '../../scripts/build-shims/redis-commands.mjs';

const TABLE = createRequire(import.meta.url).resolve('@redis/client/dist/lib/commands/index.js');
type Table = { default: Record<string, unknown>; NON_STICKY_COMMANDS: Record<string, unknown> };

/** Loads the rewritten table as CommonJS, counting the modules it requires. */
function loadLazy(): { table: Table; required: string[] } {
  const required: string[] = [];
  const real = createRequire(TABLE);
  const module = { exports: {} as Table };
  const require = (id: string) => {
    if (id === './index') return module.exports;
    required.push(id);
    return real(id);
  };
  const source = lazyCommandTable(readFileSync(TABLE, 'utf8')) as string;
  const wrapper = runInThisContext(`(function (exports, require, module) {${source}\n})`, {
    filename: TABLE,
  });
  wrapper(module.exports, require, module);
  return { table: module.exports, required };
}

describe("the build's lazy node-redis command table", () => {
  it('requires no command module at load, and one when a command of it is first read', () => {
    const { table, required } = loadLazy();
    expect(required).toEqual([]);
    const get = table.default.GET as { parseCommand: unknown };
    expect(typeof get.parseCommand).toBe('function');
    expect(required).toEqual(['./GET']);
    expect(table.default.get).toBe(get);
    expect(required).toEqual(['./GET']);
  });

  it('holds every command of the original, each the same module', () => {
    const original = createRequire(TABLE)(TABLE) as Table;
    const { table } = loadLazy();
    const names = Object.keys(original.default);
    expect(names.length).toBeGreaterThan(600);
    expect(Object.keys(table.default)).toEqual(names);
    for (const name of names) expect(table.default[name], name).toBe(original.default[name]);
    expect(Object.keys(table.NON_STICKY_COMMANDS)).toEqual(Object.keys(original.NON_STICKY_COMMANDS));
    expect(table.NON_STICKY_COMMANDS.HOTKEYS_GET).toBeUndefined();
    expect(table.NON_STICKY_COMMANDS.SET).toBe(original.default.SET);
  });

  it('fails the build when the table no longer has the shape it rewrites', () => {
    const source = readFileSync(TABLE, 'utf8');
    expect(() => lazyCommandTable(source.replace('exports.default = {\n', 'exports.default = ({\n'))).toThrow(
      /the command table.*changed/,
    );
    expect(() =>
      lazyCommandTable(source.replace(/ {4}GET: GET_1\.default,/, '    GET: pick(GET_1),')),
    ).toThrow(/entries.*changed/);
    const eager = source.replace(
      'const GET_1 = __importDefault(require("./GET"));',
      'var GET_1 = __importDefault(require("./GET"));',
    );
    expect(eager).not.toBe(source);
    expect(() => lazyCommandTable(eager)).toThrow(/requires.*others left/);
  });
});
