/**
 * Runs a dev chain on its own, for trying the signing page with a browser wallet:
 * `npx tsx src/chains/evm/devchain-main.ts [port]` (default 8545). Prints the RPC URL, the contract
 * addresses and the dev wallet's key (a public hardhat test key) to import into the wallet.
 */
import { startDevChain } from './devchain.js';

const port = Number(process.argv[2] ?? process.env.EVM_DEV_PORT ?? 8545);
const chain = await startDevChain({ port });
console.log(
  [
    `Dev chain ${chain.chainId} at ${chain.rpcUrl}`,
    `escrow       ${chain.escrow}`,
    `USDT         ${chain.tokens.usdt}`,
    `USDC permit  ${chain.tokens.permitToken}`,
    `dev wallet   ${chain.devAccount.address}`,
    `dev key      ${chain.devAccount.privateKey} (public hardhat test key: never use on a real chain)`,
  ].join('\n'),
);
const stop = async () => {
  await chain.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
