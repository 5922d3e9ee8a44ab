import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { E2E_TILE_PORT } from './ports';

/**
 * The map's tile server in a browser run (ADR 024): one plain 256 px PNG for every /tiles/{z}/{x}/{y}.png, on its own
 * loopback port, so the map draws as it would and no test reaches OpenStreetMap. Being another origin, it also proves
 * the CSP's img-src lets the configured tile server through.
 */
export const E2E_TILE_URL = `http://127.0.0.1:${E2E_TILE_PORT}/tiles/{z}/{x}/{y}.png`;
export const E2E_TILE_ATTRIBUTION = 'Mapa de teste';

const TILE = fs.readFileSync(path.join(import.meta.dirname, 'assets/map-tile.png'));
const TILE_PATH = /^\/tiles\/\d+\/-?\d+\/-?\d+\.png$/;

export async function startTileServer(): Promise<() => Promise<void>> {
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || !TILE_PATH.test(request.url ?? '')) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'image/png', 'content-length': TILE.length, 'cache-control': 'max-age=3600' }).end(TILE);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(E2E_TILE_PORT, '127.0.0.1', () => resolve());
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
