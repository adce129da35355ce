// `sejong serve`: start the server on the configured settings and stop gracefully on SIGTERM/SIGINT.
import { loadConfig } from '../config.js';
import { startServer } from '../server/start.js';

const HELP = `Usage: sejong serve

Starts the HTTP server (media API, e-KYC, legal REST API and MCP) on SEJONG_HOST:SEJONG_PORT with the LMDB
store in SEJONG_DATA_DIR. On first start without SEJONG_ADMIN_KEY an admin key is generated and printed once.
SIGTERM/SIGINT: stop accepting, finish in-flight requests and jobs, close the worker pool and the store.
`;

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  const config = loadConfig();
  const server = await startServer(config);
  // the listening line on stdout as plain JSON, also when the logger is buffered
  process.stdout.write(JSON.stringify({ msg: 'listening', port: server.port }) + '\n');
  await new Promise<void>((resolve) => {
    const stop = (sig: string) => {
      process.stdout.write(JSON.stringify({ msg: 'shutting down', signal: sig }) + '\n');
      void server.close().then(resolve);
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  return 0;
}
