/**
 * `.env` in the working directory, read by the app and the doctor themselves (not only by docker
 * compose), so a server without compose runs what its `.env` says. The environment wins over the
 * file, as with compose. `ENV_FILE` names another file; `ENV_FILE=` (empty) reads none.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';

export interface SettingSources {
  /** The file read, if any (absolute path). */
  file?: string;
  /** Names whose value came from the file. */
  fromFile: string[];
  /** Names given in the file too, kept from the environment (it takes precedence). */
  overridden: string[];
}

/** Reads the file into `env` (names already there are kept) and says where each setting came from. */
export function loadDotEnv(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): SettingSources {
  const named = env.ENV_FILE;
  if (named === '') return { fromFile: [], overridden: [] };
  const file = resolve(cwd, named ?? '.env');
  if (!existsSync(file)) {
    if (named) throw new Error(`ENV_FILE: ${file} does not exist`);
    return { fromFile: [], overridden: [] };
  }
  const parsed = parseEnv(readFileSync(file, 'utf8'));
  const fromFile: string[] = [];
  const overridden: string[] = [];
  for (const [name, value] of Object.entries(parsed)) {
    if (env[name] !== undefined) overridden.push(name);
    else {
      env[name] = value;
      fromFile.push(name);
    }
  }
  return { file, fromFile, overridden };
}

/** rampchat's settings, by the prefixes `.env.example` uses (the rest of the environment is the machine's). */
const OURS =
  /^(?:NODE_ENV|ENV_FILE|(?:WHATSAPP|LIMIT|RAMP|TELEGRAM|SANDBOX|EVM|SELL|SUPPORT|SAVINGS|ALGORAND|RECOVERY|ALERTS|TERMINAL|LOG|INDEXER|HTTP|ALGOD|WALLETCONNECT|TRACKER|START|SIGNING|SHUTDOWN|REDIS|RATE|PUBLIC|POLL|ONRAMP|OFFRAMP|METRICS|JOURNAL|FLOW|DOMAIN|DOCTOR|DATA)_[A-Z0-9_]+)$/;

/** One line for the start: where each setting came from, by name only (never a value). */
export function describeSources(sources: SettingSources, env: NodeJS.ProcessEnv): string | undefined {
  const fileNames = new Set(sources.fromFile);
  const fromEnv = Object.keys(env)
    .filter((n) => !fileNames.has(n) && OURS.test(n))
    .sort();
  if (!sources.file && fromEnv.length === 0) return undefined;
  const parts: string[] = [];
  if (sources.file)
    parts.push(
      `${sources.fromFile.length} from ${sources.file} (${sources.fromFile.sort().join(', ') || 'none'})`,
    );
  parts.push(
    fromEnv.length > 0
      ? `${fromEnv.length} from the environment (${fromEnv.join(', ')})`
      : 'none from the environment',
  );
  if (sources.overridden.length > 0)
    parts.push(`the environment overrides the file for ${sources.overridden.sort().join(', ')}`);
  return `settings: ${parts.join('; ')}`;
}
