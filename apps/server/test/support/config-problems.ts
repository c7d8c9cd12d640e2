import { ConfigError, loadConfig } from '../../src/config.js';

/** What loadConfig refuses in `env`, one line per bad variable; none when it starts. */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}
