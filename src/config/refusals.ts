/**
 * Every reason a start is refused, in one pass: a value that does not parse no longer hides what
 * production would say about the rest, so an operator fixes everything after one run.
 */
import { type Config, ConfigError, envSchema, loadConfig } from './env.js';
import { startIssues } from './production.js';

const nameOf = (issue: string) => issue.split(':')[0]?.trim() ?? '';

/**
 * The settings as far as they parse, and every issue: values that do not parse (their variables are
 * then read as unset), missing partners, and what the mode (production) requires. A variable is
 * named once, by its first issue.
 */
export function settingsIssues(env: NodeJS.ProcessEnv): {
  config: Config;
  issues: string[];
  /** Whether some value did not parse (the config then reads it as unset). */
  unparsed: boolean;
} {
  const issues: string[] = [];
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    issues.push(...err.issues);
    const bad = new Set(err.issues.map(nameOf));
    const rest = Object.fromEntries(Object.entries(env).filter(([name]) => !bad.has(name)));
    const parsed = envSchema.safeParse(rest);
    // Unparseable even without the named variables (cannot happen with named issues): stop here.
    if (!parsed.success) return { config: envSchema.parse({}), issues, unparsed: true };
    config = parsed.data;
  }
  const unparsed = issues.length > 0;
  const named = new Set(issues.map(nameOf));
  for (const issue of startIssues(config)) {
    const name = nameOf(issue);
    if (named.has(name)) continue;
    named.add(name);
    issues.push(issue);
  }
  return { config, issues, unparsed };
}

/** Throws one ConfigError with every issue of `settingsIssues` and `more` (other schemas' issues). */
export function assertAllSettings(env: NodeJS.ProcessEnv, more: string[] = []): Config {
  const { config, issues } = settingsIssues(env);
  const all = [...issues, ...more.filter((m) => !issues.some((i) => nameOf(i) === nameOf(m)))];
  if (all.length === 0) return config;
  throw new ConfigError(
    all,
    config.NODE_ENV === 'production'
      ? `rampchat will not start in production (NODE_ENV=production): ${all.length} setting(s) missing, unsafe or invalid`
      : undefined,
  );
}
