/** The local Algorand stand-in (algod + indexer) lives in src, where local mode starts it too. */
export * from '../../src/chains/algorand/stand-in.js';
