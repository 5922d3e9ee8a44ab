import dns from 'node:dns/promises';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Why an SMTP server could not be used. 'Testar Conexão' shows one pt-BR message per kind; the detail (resolver or
 * server text) goes to the log only, so the button cannot be used to read what is listening where.
 */
export type SmtpFailureKind =
  | 'port_not_allowed'
  | 'address_not_allowed'
  | 'dns_not_found'
  | 'connection_refused'
  | 'timeout'
  | 'tls'
  | 'authentication'
  | 'other';

/** The names a relay on this very machine is typed as: the only way to reach a loopback address. */
export const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1']);

/** Where to connect: the checked address, and the typed name for TLS (SNI and certificate check). */
export type SmtpTarget = { address: string; servername: string | undefined };

export type SmtpTargetResult = { ok: true; target: SmtpTarget } | { ok: false; kind: SmtpFailureKind; detail: string };

type LookupAddress = { address: string; family: number };
export type Lookup = (host: string) => Promise<LookupAddress[]>;

const systemLookup: Lookup = (host) => dns.lookup(host, { all: true, verbatim: true });

/**
 * Whether an address may be an SMTP server: public unicast only. Private, link-local (the cloud metadata service at
 * 169.254.169.254 included), unique-local, multicast, reserved and unspecified ranges are refused; loopback only when
 * the admin typed a loopback name. IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
 */
export function isAllowedSmtpAddress(address: string, typedLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.process(address).range();
  return range === 'unicast' || (typedLoopback && range === 'loopback');
}

/** The same rule on the port: SMTP's ports only (SMTP_ALLOWED_PORTS), so the button is no port scanner. */
export function isAllowedSmtpPort(port: number, allowedPorts: readonly number[]): boolean {
  return allowedPorts.includes(port);
}

function lookupFailureKind(error: unknown): SmtpFailureKind {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  return code === 'ENOTFOUND' || code === 'ENODATA' || code === 'EAI_AGAIN' || code === 'ESERVFAIL' ? 'dns_not_found' : 'other';
}

/**
 * Resolves the typed host once and checks every address it names; the connection then goes to the address checked
 * here, so a DNS answer that changes between the check and the connection (rebinding) cannot reach another host.
 */
export async function resolveSmtpTarget(
  server: { host: string; port: number },
  allowedPorts: readonly number[],
  lookup: Lookup = systemLookup,
): Promise<SmtpTargetResult> {
  if (!isAllowedSmtpPort(server.port, allowedPorts)) return { ok: false, kind: 'port_not_allowed', detail: `port ${server.port}` };
  const host = server.host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const typedLoopback = LOOPBACK_HOSTS.has(host);
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host)).map((entry) => entry.address);
    } catch (error) {
      return { ok: false, kind: lookupFailureKind(error), detail: error instanceof Error ? error.message : String(error) };
    }
  }
  const [first] = addresses;
  if (first === undefined) return { ok: false, kind: 'dns_not_found', detail: `${host}: no address` };
  const refused = addresses.filter((address) => !isAllowedSmtpAddress(address, typedLoopback));
  if (refused.length > 0) return { ok: false, kind: 'address_not_allowed', detail: `${host} -> ${refused.join(', ')}` };
  return { ok: true, target: { address: first, servername: net.isIP(host) ? undefined : host } };
}

const TLS_CODE = /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|HOSTNAME|ALTNAME/;

function stringProperty(error: unknown, key: string): string | undefined {
  if (typeof error !== 'object' || error === null || !(key in error)) return undefined;
  const value: unknown = Reflect.get(error, key);
  return typeof value === 'string' ? value : undefined;
}

/**
 * The kind of a nodemailer failure. nodemailer puts its own class in `code` (EAUTH, ETLS, EDNS, ETIMEDOUT, ESOCKET,
 * ECONNECTION) and keeps the system's code (ECONNREFUSED, a certificate error) in `originalCode`.
 */
export function smtpFailureKindOf(error: unknown): SmtpFailureKind {
  const code = stringProperty(error, 'code');
  const original = stringProperty(error, 'originalCode') ?? code ?? '';
  if (code === 'EAUTH') return 'authentication';
  if (code === 'ETLS' || code === 'EREQUIRETLS' || TLS_CODE.test(original)) return 'tls';
  if (code === 'ETIMEDOUT' || original === 'ETIMEDOUT' || original === 'SOCKET_TIMEOUT') return 'timeout';
  if (original === 'ECONNREFUSED' || original === 'ECONNRESET') return 'connection_refused';
  if (code === 'EDNS' || original === 'ENOTFOUND' || original === 'EAI_AGAIN') return 'dns_not_found';
  return 'other';
}
