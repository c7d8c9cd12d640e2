import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A loopback port nobody listens on right now, for a server the test starts in a child process (which
 * cannot be handed a listening socket). Two test runs side by side (CI runs the server suites on two
 * Node versions at once) then never reach for the same fixed port.
 */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
