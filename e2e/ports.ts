/** The app's port in a browser run (E2E_PORT lets runs on one machine use their own). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);

/** The port of the SMTP server 'Testar Conexão' talks to in admin-settings.spec.ts, beside the app's own. */
export const E2E_SMTP_PORT = E2E_PORT + 1;

/** The platform's host in a browser run (PUBLIC_URL of the server the run starts). */
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;

/** The port of the map's tile stand-in (map-tiles.ts): the browser tests never fetch tiles from the internet. */
export const E2E_TILE_PORT = E2E_PORT + 2;
