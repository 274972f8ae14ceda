/**
 * Reading settings from the environment with a zod schema: the one helper every settings module
 * shares (the core config and each capability's own piece, such as the chains'). A leaf, so that
 * the chains' settings need nothing from `src/config`, which in turn gathers them.
 */
import type * as z from 'zod';

/** Thrown when the environment is wrong; `issues` name each variable and what it expects. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(
    readonly issues: string[],
    heading = 'Invalid settings',
  ) {
    super(`${heading}:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
  }
}

/**
 * Parses the environment with a schema, naming every bad variable. Without zod's compiled parser:
 * settings are parsed about once a start, and compiling one for the core's 81 settings took 13 ms
 * of a start against 4 ms to parse them plainly.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv): z.infer<S> {
  const result = schema.safeParse(env, { jitless: true });
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((i) => `${i.path.join('.') || '(environment)'}: ${i.message}`),
  );
}
