import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Connections proxied so far. */
  accepted: () => number;
  /** Like a server going down: every proxied connection is destroyed and new ones are refused. */
  cut: () => Promise<void>;
  /** Accepts connections again, on the same port. */
  restore: () => Promise<void>;
  close: () => Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 in front of `target`, so a test can take a dependency (PostgreSQL, the
 * fake Twilio) away and bring it back without touching the real one.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  let server = createListener();
  await listen(server, 0);
  const port = (server.address() as net.AddressInfo).port;

  function createListener(): net.Server {
    return net.createServer((client) => {
      accepted += 1;
      const upstream = net.connect(target.port, target.host);
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        sockets.add(a);
        a.on('error', () => b.destroy());
        a.on('close', () => {
          sockets.delete(a);
          b.destroy();
        });
        a.pipe(b);
      }
    });
  }

  function listen(s: net.Server, at: number): Promise<void> {
    return new Promise((resolve, reject) => {
      s.once('error', reject);
      s.listen(at, '127.0.0.1', () => {
        s.off('error', reject);
        resolve();
      });
    });
  }

  const cut = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };

  return {
    port,
    accepted: () => accepted,
    cut,
    restore: async () => {
      if (server.listening) return;
      server = createListener();
      await listen(server, port);
    },
    close: async () => {
      if (server.listening) await cut();
    },
  };
}
