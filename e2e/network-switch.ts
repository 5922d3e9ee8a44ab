import http from 'node:http';
import type { Socket } from 'node:net';

/**
 * A switch on the wire between the browser and the run's server: a plain HTTP relay on a port of its own that the
 * browser talks to (`http://demo.localhost:<port>`, the Host header kept, so the server sees the clinic's site). Off,
 * it cuts every open connection and refuses every new one before a byte is read — for the page and its service worker
 * alike, as a phone in a waiting room without signal — and records what it refused and what it let through, so a test
 * can assert that nothing reached the server while the network was away.
 */
export type NetworkSwitch = {
  port: number;
  /** Requests relayed to the server since the last `goOffline()` (method and path). */
  relayedWhileOffline: string[];
  /** Connections refused while offline: proof the browser did try. */
  refusedWhileOffline: () => number;
  goOffline: () => void;
  goOnline: () => void;
  close: () => Promise<void>;
};

export async function startNetworkSwitch(upstreamPort: number): Promise<NetworkSwitch> {
  let offline = false;
  let refused = 0;
  const relayedWhileOffline: string[] = [];
  const sockets = new Set<Socket>();

  const server = http.createServer((request, response) => {
    if (offline) relayedWhileOffline.push(`${request.method} ${request.url}`);
    const upstream = http.request(
      { host: '127.0.0.1', port: upstreamPort, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  server.on('connection', (socket) => {
    if (offline) {
      refused += 1;
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the network switch has no TCP port');
  const { port } = address;

  return {
    port,
    relayedWhileOffline,
    refusedWhileOffline: () => refused,
    goOffline: () => {
      offline = true;
      relayedWhileOffline.length = 0;
      refused = 0;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    goOnline: () => {
      offline = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
