/**
 * The clinic site's public price table (the router's `/precos`), linked from its landing page. A module of its own:
 * the landing imports nothing else of the table.
 */
export const PRICE_TABLE_PATH = '/precos';
