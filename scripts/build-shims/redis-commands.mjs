// An esbuild plugin for node-redis's command table (@redis/client/dist/lib/commands/index.js), which
// requires every one of its ~400 command modules as it loads: compiling and running them was about
// 40 ms of a production start (a quarter of its time to the first Redis call), for the twenty or so
// commands the app sends. Here each module is required when a command of it is first used: the
// table's entries become getters over lazily required modules, its `NON_STICKY_COMMANDS` copy a
// lazily made one, and (./redis-commander.mjs) each client method makes its command function on its
// first call. Names, results and errors are unchanged. A changed node-redis whose table no longer
// has this shape fails the build rather than starting slow.
import { readFile } from 'node:fs/promises';

const REQUIRE = /^const (\w+_1) = (__importDefault|__importStar)\(require\("(\.\/[\w-]+)"\)\);$/gm;
const ENTRY = /^( {4})(\w+|'[\w-]+'): (\w+_1)\.default(,?)$/gm;
const TABLE_START = 'exports.default = {\n';
const NON_STICKY =
  /^const \{ (HOTKEYS_GET: _HOTKEYS_GET, hotkeysGet: _hotkeysGet, HOTKEYS_RESET: _HOTKEYS_RESET, hotkeysReset: _hotkeysReset, HOTKEYS_START: _HOTKEYS_START, hotkeysStart: _hotkeysStart, HOTKEYS_STOP: _HOTKEYS_STOP, hotkeysStop: _hotkeysStop), \.\.\.NON_STICKY_COMMANDS \} = index_1\.default;\nexports\.NON_STICKY_COMMANDS = NON_STICKY_COMMANDS;$/m;

const LAZY = `
/** A module required on its first property read (rampchat's build: see scripts/build-shims). */
function lazyModule(load) {
    let mod;
    return new Proxy({}, { get: (_, key) => (mod ??= load())[key] });
}
`;

/** The table's source with every command module required on first use; throws if its shape changed. */
export function lazyCommandTable(source, path = 'commands/index.js') {
  const fail = (what) => {
    throw new Error(`${path}: ${what} changed; update scripts/build-shims/redis-commands.mjs`);
  };
  const start = source.indexOf(TABLE_START);
  const end = source.indexOf('\n};\n', start);
  if (start < 0 || end < 0) fail('the command table');
  let requires = 0;
  const head = source.slice(0, start).replace(REQUIRE, (_, name, wrap, file) => {
    requires++;
    return `const ${name} = lazyModule(() => ${wrap}(require("${file}")));`;
  });
  if (
    requires < 300 ||
    /require\("\.\/(?!index")/.test(head.replace(/lazyModule\(\(\) => \w+\(require\(/g, ''))
  )
    fail(`the command modules' requires (${requires} made lazy, others left)`);
  const table = source.slice(start + TABLE_START.length, end);
  let entries = 0;
  const lazyTable = table.replace(ENTRY, (_, indent, key, mod, comma) => {
    entries++;
    return `${indent}get ${key}() { return ${mod}.default; }${comma}`;
  });
  // Every line left is a doc comment: an entry of another form would be read at load.
  const others = lazyTable
    .split('\n')
    .filter((l) => !/^\s*(\/\*\*|\*|\*\/|get (\w+|'[\w-]+')\(\) \{)/.test(l));
  if (entries < 600 || others.length > 0) fail(`the command table's entries (${others[0] ?? entries})`);
  const tail = source.slice(end);
  const match = NON_STICKY.exec(tail);
  if (!match) fail('NON_STICKY_COMMANDS');
  const sticky = match[1].split(', ').map((pair) => pair.split(':')[0].trim());
  const lazyTail = tail.replace(
    NON_STICKY,
    `let nonSticky;
Object.defineProperty(exports, "NON_STICKY_COMMANDS", { enumerable: true, get() {
    if (!nonSticky) {
        const entries = Object.getOwnPropertyDescriptors(index_1.default);
        for (const key of ${JSON.stringify(sticky)}) delete entries[key];
        nonSticky = Object.defineProperties({}, entries);
    }
    return nonSticky;
} });`,
  );
  return `${head}${LAZY}${TABLE_START}${lazyTable}${lazyTail}`;
}

export const redisCommandsPlugin = {
  name: 'redis-commands',
  setup(build) {
    build.onLoad(
      { filter: /@redis[\\/]client[\\/]dist[\\/]lib[\\/]commands[\\/]index\.js$/ },
      async (args) => ({
        contents: lazyCommandTable(await readFile(args.path, 'utf8'), args.path),
        loader: 'js',
      }),
    );
  },
};
