/**
 * autocannon for hot-path.ts when each request must come from another desk — another receptionist's session with a
 * card of their own clinic — which autocannon's command line cannot vary. Run as a process of its own, like the
 * command line, so the load does not share the server's or the caller's event loop:
 *
 *   node --import tsx bench/desk-load.ts SPEC.json   (prints autocannon's result as JSON)
 *
 * SPEC: { url, origin, connections, seconds, desks: [{ cookie, body }] }; the requests take the desks in turn. The
 * result carries `statuses`, the answers counted by HTTP status.
 */
import fs from 'node:fs/promises';
import autocannon from 'autocannon';
import { z } from 'zod';

const specSchema = z.object({
  url: z.url(),
  origin: z.string(),
  connections: z.number().int().positive(),
  seconds: z.number().positive(),
  desks: z.array(z.object({ cookie: z.string(), body: z.string() })).min(1),
});

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('usage: desk-load.ts SPEC.json');
  const spec = specSchema.parse(JSON.parse(await fs.readFile(file, 'utf8')));
  let next = 0;
  /** Answers by status: the figures' "errors" say how many were not 2xx, this says what they were. */
  const statuses: Record<number, number> = {};
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const desk = spec.desks[next++ % spec.desks.length];
          if (!desk) throw new Error('no desk');
          return { ...request, headers: { ...request.headers, cookie: desk.cookie, origin: spec.origin, 'content-type': 'application/json' }, body: desk.body };
        },
        onResponse: (status) => {
          statuses[status] = (statuses[status] ?? 0) + 1;
        },
      },
    ],
  });
  process.stdout.write(JSON.stringify({ ...result, statuses }));
}

await main();
