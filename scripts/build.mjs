// `npm run build`: the app as a few ES module files in dist/ (esbuild), so a start reads and compiles
// only the chunks its first message needs instead of resolving a thousand files one by one.
// Packages with native code or data files they find beside themselves stay in node_modules.
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { redisCommanderPlugin } from './build-shims/redis-commander.mjs';
import { redisCommandsPlugin } from './build-shims/redis-commands.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outIndex = process.argv.indexOf('--outdir');
const outdir = outIndex > 0 ? process.argv[outIndex + 1] : join(root, 'dist');

/** Loaded from node_modules at run time: native addons, font and data files, the dev chain. */
export const EXTERNAL = ['@resvg/resvg-js', '@whiskeysockets/baileys', 'pdfkit', 'hardhat'];

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/main.ts', 'doctor/main': 'src/doctor/main.ts' },
  outdir,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  plugins: [redisCommanderPlugin, redisCommandsPlugin],
  alias: {
    'whatwg-url': './scripts/build-shims/whatwg-url.cjs',
    '@opentelemetry/api': './scripts/build-shims/opentelemetry-api.cjs',
  },
  minify: true,
  // Error classes and stack traces keep their names.
  keepNames: true,
  sourcemap: 'linked',
  legalComments: 'none',
  // CommonJS packages inside an ES module bundle still call require().
  banner: {
    js: "import{createRequire as __rcRequire}from'node:module';const require=__rcRequire(import.meta.url);",
  },
  logLevel: 'warning',
  metafile: process.env.BUILD_METAFILE !== undefined,
});
if (result.metafile) writeFileSync(process.env.BUILD_METAFILE, JSON.stringify(result.metafile));
