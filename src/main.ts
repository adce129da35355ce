// CLI entry: `sejong serve` (default), `sejong keys …`, `sejong law …`.
import { ConfigError } from './config.js';
import { EngineUnavailable } from './shared/errors.js';

const HELP = `sejong: media, identity-verification and Korean legal-information server (interface 3.6.0)

Usage: sejong <command> [options]

Commands:
  serve            start the HTTP server (default; what \`npm start\` runs)
  keys <sub>       manage API keys: create, list, revoke, update (see \`sejong keys --help\`)
  law <sub>        statute corpus: import, sync, stats (see \`sejong law --help\`)
  db migrate       shared mode: apply the PostgreSQL schema migrations (start-up also does)
  docs tables      print (or --write README.md) the README's settings and error tables

Every setting is an environment variable (see README.md, "Settings"). --help on any command shows its usage.
`;

type Command = (args: string[]) => Promise<number>;

/** every command; each is listed in HELP (test/cli/help.test.ts checks) */
export const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./cli/serve.js')).run,
  keys: async () => (await import('./cli/keys.js')).run,
  law: async () => (await import('./law/cli.js')).run,
  db: async () => (await import('./cli/db.js')).run,
  docs: async () => (await import('./cli/readme-tables.js')).run,
};

export async function main(argv: string[]): Promise<number> {
  const [cmd = 'serve', ...rest] = argv;
  if (cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  const load = COMMANDS[cmd];
  if (!load) {
    process.stderr.write(`Unknown command "${cmd}".\n\n${HELP}`);
    return 2;
  }
  try {
    return await (await load())(rest);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`Invalid setting ${e.message}\n`);
      return 78;
    }
    if (e instanceof EngineUnavailable) {
      process.stderr.write(`Cannot start: ${e.message}\n`);
      return 69;
    }
    throw e;
  }
}
