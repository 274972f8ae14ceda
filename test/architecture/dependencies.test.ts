/**
 * The house rules of src/, read from the code's own imports (static and dynamic): which folder may
 * import which (the picture in the README's "Architecture" section), no circle between folders,
 * and pure flows (no channel, store, client or SDK). A new edge fails here until the table and the
 * README say it is meant.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** Who may import whom, bottom of the house first. `main.ts` (the root) may import anything. */
const ALLOWED: Record<string, readonly string[]> = {
  chat: [],
  domain: ['chat'],
  log: ['domain'],
  config: ['domain'],
  // config: where the app's files are (config/app-root.ts), for locales/ and contracts/.
  i18n: ['chat', 'config', 'domain'],
  http: ['log'],
  // config: REDIS_URL's reading (a redis+sentinel:// URL), shared with the connections.
  store: ['chat', 'config', 'flows', 'log'],
  limits: ['store'],
  outbound: ['chat', 'log', 'store'],
  ramp: ['domain'],
  chains: ['config', 'domain'],
  sandbox: ['config', 'domain', 'log'],
  flows: ['chat', 'domain', 'i18n'],
  tracker: ['chat', 'config', 'domain', 'flows', 'i18n', 'log', 'outbound', 'ramp', 'store'],
  recovery: ['chat', 'domain', 'flows', 'log', 'ramp', 'store', 'tracker'],
  // outbound: a send's scope (its name, class, report) goes down with it (outbound/scope.ts).
  engine: [
    'channels',
    'chat',
    'domain',
    'flows',
    'limits',
    'log',
    'outbound',
    'ramp',
    'recovery',
    'store',
    'tracker',
  ],
  channels: ['chat', 'config', 'domain', 'flows', 'http', 'i18n', 'log', 'outbound', 'store'],
  signing: ['chains', 'chat', 'domain', 'flows', 'http', 'i18n', 'log'],
  // recovery: alerts and plans are kept in its record outside Redis and put back by its pass.
  alerts: ['chat', 'config', 'domain', 'engine', 'flows', 'i18n', 'log', 'ramp', 'recovery', 'store'],
  // Price charts: the rate history (Redis), the pictures, the `chart` effect and the /price flow.
  charts: ['chat', 'config', 'domain', 'engine', 'flows', 'i18n', 'log', 'ramp', 'store'],
  // Receipts: a finished order (the tracker's record) drawn as a picture by the charts' rasteriser.
  receipts: ['charts', 'chat', 'domain', 'engine', 'flows', 'i18n', 'log', 'store', 'tracker'],
  // Monthly statements: the user's orders (the tracker's history), the files, the `statement` effect.
  statements: ['chat', 'domain', 'engine', 'flows', 'i18n', 'log', 'store', 'tracker'],
  sell: [
    'chains',
    'chat',
    'config',
    'domain',
    'engine',
    'flows',
    'http',
    'i18n',
    'limits',
    'log',
    'ramp',
    'recovery',
    'sandbox',
    'signing',
    'store',
    'tracker',
  ],
  support: [
    'channels',
    'chat',
    'config',
    'domain',
    'engine',
    'flows',
    'i18n',
    'limits',
    'log',
    // outbound: a user's lines are posted under a name, so one taken over is not posted twice.
    'outbound',
    'ramp',
    // recovery: open cases are kept in its record outside Redis and put back by its pass.
    'recovery',
    'store',
    'tracker',
  ],
  savings: [
    'chat',
    'config',
    'domain',
    'engine',
    'flows',
    'i18n',
    'log',
    'outbound',
    'ramp',
    'recovery',
    'store',
  ],
  // `npm run doctor`: reads the settings and asks each outside service, as the app would.
  doctor: ['chains', 'config', 'ramp', 'sell', 'store'],
  app: [
    'alerts',
    'charts',
    'chains',
    'channels',
    'chat',
    'config',
    'engine',
    'flows',
    'http',
    'i18n',
    'limits',
    'log',
    'ramp',
    'receipts',
    'recovery',
    'sandbox',
    'savings',
    'sell',
    'statements',
    'store',
    'support',
    'tracker',
  ],
};

/** npm packages a pure flow may use (src/flows and the capabilities' flow modules). */
const FLOW_PACKAGES = new Set(['zod']);
const CAPABILITY_FLOWS =
  /^(alerts\/flow\/[^/]*\.ts|charts\/flow\.ts|receipts\/(flow|lines)\.ts|statements\/(flow|month)\.ts|sell\/flow(\/[^/]*)?\.ts|support\/flow\.ts|support\/ticket\/.*\.ts|savings\/(flow[^/]*|schedule)\.ts)$/;

interface FileEdge {
  file: string;
  target: string;
}

interface Edge {
  from: string;
  to: string;
  file: string;
  target: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

const folderOf = (file: string): string => {
  const parts = relative(SRC, file).split(sep);
  return parts.length === 1 ? '(root)' : parts[0]!;
};

function readImports() {
  const edges: Edge[] = [];
  const fileEdges: FileEdge[] = [];
  const packages: Array<{ file: string; name: string }> = [];
  for (const file of sourceFiles(SRC)) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of info.importedFiles) {
      const rel = relative(SRC, file).split(sep).join('/');
      if (!fileName.startsWith('.')) {
        packages.push({ file: rel, name: fileName });
        continue;
      }
      const target = resolve(dirname(file), fileName);
      fileEdges.push({
        file: rel,
        target: relative(SRC, target).replace(/\.js$/, '.ts').split(sep).join('/'),
      });
      const from = folderOf(file);
      const to = folderOf(target);
      if (from !== to)
        edges.push({ from, to, file: rel, target: relative(SRC, target).split(sep).join('/') });
    }
  }
  return { edges, fileEdges, packages };
}

const { edges, fileEdges, packages } = readImports();

/** Cycles of a graph, as paths like ["sell", "signing", "sell"] (at least one per circle). */
function cycles(pairs: ReadonlyArray<readonly [string, string]>): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const [from, to] of pairs) {
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)!.add(to);
  }
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe('the house rules of src/', () => {
  it('reads the imports (the check sees the code)', () => {
    expect(edges.some((e) => e.from === 'flows' && e.to === 'chat')).toBe(true);
    expect(edges.some((e) => e.from === 'app' && e.to === 'sell')).toBe(true);
  });

  it('every folder is in the table', () => {
    const folders = new Set(sourceFiles(SRC).map(folderOf));
    folders.delete('(root)');
    expect([...folders].filter((f) => !(f in ALLOWED)).sort()).toEqual([]);
  });

  it('each folder imports only what the table allows', () => {
    const unexpected = edges
      .filter((e) => e.from !== '(root)' && !ALLOWED[e.from]?.includes(e.to))
      .map((e) => `${e.file} -> ${e.target}`);
    expect(unexpected).toEqual([]);
  });

  it('the table itself has no circle, and neither has the code', () => {
    const tableEdges = Object.entries(ALLOWED).flatMap(([from, tos]) => tos.map((to) => ({ from, to })));
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      tableEdges.some(
        (e) =>
          e.from === from && (e.to === to || (!seen.has(e.to) && seen.add(e.to) && reaches(e.to, to, seen))),
      );
    expect(Object.keys(ALLOWED).filter((f) => reaches(f, f))).toEqual([]);
    expect(cycles(edges.map((e) => [e.from, e.to] as const))).toEqual([]);
  });

  it('no module imports itself back through others, even for types only', () => {
    expect(cycles(fileEdges.map((e) => [e.file, e.target] as const))).toEqual([]);
  });

  it('nothing imports the app but the entry point', () => {
    expect(edges.filter((e) => e.to === 'app' && e.from !== '(root)').map((e) => e.file)).toEqual([]);
  });

  it('flows are pure: no package but zod, no channel, store, client or SDK', () => {
    const impure = packages
      .filter((p) => p.file.startsWith('flows/') || CAPABILITY_FLOWS.test(p.file))
      .filter((p) => !FLOW_PACKAGES.has(p.name))
      .map((p) => `${p.file} -> ${p.name}`);
    expect(impure).toEqual([]);
    const capabilityFlowEdges = edges
      .filter((e) => CAPABILITY_FLOWS.test(e.file))
      .filter((e) => !['chat', 'domain', 'i18n', 'flows'].includes(e.to))
      .map((e) => `${e.file} -> ${e.target}`);
    expect(capabilityFlowEdges).toEqual([]);
  });

  it("sell's flow stays pure inside sell too: it imports no other part of sell", () => {
    const inFlow = (file: string) => /^sell\/flow(\.ts|\/)/.test(file);
    const reaching = fileEdges
      .filter((e) => inFlow(e.file) && e.target.startsWith('sell/') && !inFlow(e.target))
      .map((e) => `${e.file} -> ${e.target}`);
    expect(reaching).toEqual([]);
  });

  it('the chat vocabulary imports nothing', () => {
    expect(packages.filter((p) => p.file.startsWith('chat/')).map((p) => p.name)).toEqual([]);
  });
});
