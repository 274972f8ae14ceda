// An esbuild plugin for node-redis's `attachConfig` (@redis/client/dist/lib/commander.js), which
// builds the client class by adding some 1,000 command methods to a class prototype one at a time.
// V8 reshapes a prototype on every added property: about 120 ms and as much again in garbage
// collection, twice (the client and its MULTI), on every start. The same methods are set on a plain
// object placed between the class and its base, which V8 fills in about a millisecond. The
// methods' names and results and `instanceof` are unchanged. A changed node-redis that no longer has the
// loop fails the build rather than starting slow.
import { readFile } from 'node:fs/promises';

const LOOP = `    for (const [name, command] of Object.entries(commands)) {
        Class.prototype[name] = createCommand(command, RESP);
    }
`;
// Each method makes its command function on its first call: reading \`commands[name]\` requires
// the command's module, which the table (./redis-commands.mjs) leaves until then.
const FAST = `    const commandMethods = Object.create(BaseClass.prototype);
    for (const name of Object.keys(commands)) {
        let method;
        commandMethods[name] = function (...args) {
            method ??= createCommand(commands[name], RESP);
            return method.apply(this, args);
        };
    }
    Object.setPrototypeOf(Class.prototype, commandMethods);
`;

export const redisCommanderPlugin = {
  name: 'redis-commander',
  setup(build) {
    build.onLoad({ filter: /@redis[\\/]client[\\/]dist[\\/]lib[\\/]commander\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes(LOOP))
        throw new Error(`${args.path}: attachConfig's command loop changed; update scripts/build-shims`);
      return { contents: source.replace(LOOP, FAST), loader: 'js' };
    });
  },
};
