#!/usr/bin/env node
/**
 * Prints the SHA-384 of every script in a @reown/appkit-cdn release, as src/signing/walletconnect.ts
 * pins them. Usage: npm pack @reown/appkit-cdn@<version> && tar xzf reown-appkit-cdn-<version>.tgz &&
 * node scripts/walletconnect-manifest.mjs package/dist > src/signing/walletconnect-manifest.json
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: walletconnect-manifest.mjs <dist folder>');
  process.exit(2);
}
const files = {};
for (const name of readdirSync(dir).sort()) {
  if (!name.endsWith('.js')) continue;
  files[name] = createHash('sha384')
    .update(readFileSync(join(dir, name)))
    .digest('base64');
}
process.stdout.write(`${JSON.stringify(files, null, 0).replace(/","/g, '",\n"')}\n`);
