/**
 * Which push service addresses the server will post to (issue 29). A subscription's endpoint comes from the browser,
 * so from whoever calls our API: posting to any URL given would let a patient make the server call inside its own
 * network (SSRF). Only the push services of the browsers in use are accepted — Chrome, Edge, Firefox, Safari and
 * those built on them (Samsung Internet, Opera, Brave use Google's) — over https on the default port, with no
 * credentials in the URL. Tests add plain http on a loopback address for a local push service double.
 */
const PUSH_SERVICE_HOSTS = ['fcm.googleapis.com', 'android.googleapis.com', 'updates.push.services.mozilla.com', 'push.services.mozilla.com', 'web.push.apple.com'];
/** Services with a host per region or shard: Windows (Edge) and Apple. */
const PUSH_SERVICE_SUFFIXES = ['.notify.windows.com', '.push.apple.com'];
const LOOPBACK_HOSTS = ['127.0.0.1', '[::1]', 'localhost'];

export type EndpointPolicy = { loopback: boolean };

function isPushServiceHost(hostname: string): boolean {
  return PUSH_SERVICE_HOSTS.includes(hostname) || PUSH_SERVICE_SUFFIXES.some((suffix) => hostname.endsWith(suffix));
}

/** Whether the server may post notifications to this endpoint. */
export function isAcceptedEndpoint(endpoint: string, policy: EndpointPolicy): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return url.port === '' && isPushServiceHost(url.hostname.toLowerCase());
  return policy.loopback && url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname);
}
