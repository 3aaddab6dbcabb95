/** Loopback ports for servers the tests and benchmarks start themselves. */
import { createServer } from 'node:net';

/** A port on 127.0.0.1 nobody listens on now (taken and released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
