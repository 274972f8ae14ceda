/**
 * Lua scripts by their SHA-1: EVALSHA sends 40 characters instead of the script on every call; a
 * Redis that does not know the script yet (new, restarted, flushed) gets it once through EVAL.
 */
import { createHash } from 'node:crypto';
import type { RedisClientType } from 'redis';

const shas = new Map<string, string>();
const shaOf = (script: string) => {
  let sha = shas.get(script);
  if (!sha) {
    sha = createHash('sha1').update(script).digest('hex');
    shas.set(script, sha);
  }
  return sha;
};

/** The node-redis client methods a script needs (a client or one of its isolated copies). */
type ScriptClient = Pick<RedisClientType, 'eval' | 'evalSha'>;

/**
 * Runs a Lua script by its SHA-1, loading it with EVAL when Redis answers NOSCRIPT. Not an async
 * function: a few scripts run per update, and each async layer makes promises of its own.
 */
export function runScript(
  redis: ScriptClient,
  script: string,
  opts: { keys: string[]; arguments: string[] },
): Promise<unknown> {
  try {
    return redis.evalSha(shaOf(script), opts).catch((err: unknown) => {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return redis.eval(script, opts);
    });
  } catch (err) {
    // Thrown before any command was sent: a rejection, as from an async function.
    return Promise.reject(err);
  }
}
