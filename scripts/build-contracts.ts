/**
 * Compiles the test contracts in contracts/*.sol with the pinned solc npm package (offline) and writes
 * contracts/build/<Contract>.json ({ contractName, sourceName, compiler, abi, bytecode }).
 * The output is committed; run again after editing a contract: `npx tsx scripts/build-contracts.ts`.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const solc = require('solc') as { version(): string; compile(input: string): string };

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const contractsDir = join(root, 'contracts');
const buildDir = join(contractsDir, 'build');
/** Contracts worth an artifact; TestERC20 is only a base. */
const ARTIFACTS = ['TestEscrow', 'TestToken', 'TestPermitToken'];

interface SolcOutput {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

const sources = Object.fromEntries(
  readdirSync(contractsDir)
    .filter((f) => f.endsWith('.sol'))
    .sort()
    .map((f) => [f, { content: readFileSync(join(contractsDir, f), 'utf8') }]),
);

const input = {
  language: 'Solidity',
  sources,
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    metadata: { bytecodeHash: 'none' },
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
};

const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
const problems = output.errors ?? [];
for (const p of problems) console.error(p.formattedMessage);
if (problems.some((p) => p.severity === 'error')) process.exit(1);

mkdirSync(buildDir, { recursive: true });
for (const name of ARTIFACTS) {
  const sourceName = `${name}.sol`;
  const compiled = output.contracts[sourceName]?.[name];
  if (!compiled) throw new Error(`solc produced no ${name} in ${sourceName}`);
  const artifact = {
    contractName: name,
    sourceName: `contracts/${sourceName}`,
    compiler: `solc ${solc.version()}`,
    abi: compiled.abi,
    bytecode: `0x${compiled.evm.bytecode.object}`,
  };
  writeFileSync(join(buildDir, `${name}.json`), `${JSON.stringify(artifact, null, 2)}\n`);
  console.log(
    `contracts/build/${name}.json (${(compiled.evm.bytecode.object.length / 2) | 0} bytes of code)`,
  );
}
