import type { FastifyInstance } from 'fastify';

/** While draining, idle kept-alive connections are let go this often (those whose last answer began before it). */
const IDLE_SWEEP_MS = 100;

/**
 * The drain on SIGTERM (server.ts calls app.close()): Fastify stops taking connections and waits for the requests in
 * flight, but a kept-alive connection whose request it answers afterwards would stay open, idle, until the keep-alive
 * timeout (72 s), and hold the process past its grace period. So every answer sent while draining says
 * `Connection: close` (a reverse proxy then sends nothing more on that connection, instead of racing its close), and
 * connections that fall idle are closed as they do.
 */
export function registerGracefulClose(app: FastifyInstance): void {
  let draining = false;
  let sweep: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    draining = true;
    sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    sweep.unref();
  });
  app.addHook('onClose', async () => clearInterval(sweep));
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });
}
