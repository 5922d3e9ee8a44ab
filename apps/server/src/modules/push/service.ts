import { PUSH_SUBSCRIPTIONS_PER_USER_MAX, type PushDevice, type PushState, type PushSubscribeInput } from '@carteirinha/shared/contracts/push';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { isAcceptedEndpoint, type EndpointPolicy } from './endpoint-policy.ts';
import { listPushSubscriptions, removePushSubscription, savePushSubscription, type PushSubscriptionRow } from './repository.ts';
import type { VapidKeyStore } from './vapid.ts';

const m = messages.push;
const USER_AGENT_MAX_LENGTH = 300;

export type PushDeps = { db: Database; keys: VapidKeyStore; policy: EndpointPolicy; now: () => Date };
type Owner = { clinicId: string; userId: string };

function deviceOf(row: PushSubscriptionRow): PushDevice {
  return {
    id: row.id,
    endpoint: row.endpoint,
    userAgent: row.userAgent,
    createdAt: row.createdAt.toISOString(),
    lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
  };
}

/** Meu Perfil › Notificações: the key a browser subscribes with, and the patient's browsers that receive notices. */
export async function pushStateOf(deps: PushDeps, owner: Owner): Promise<PushState> {
  const [keys, rows] = await Promise.all([deps.keys.get(), listPushSubscriptions(deps.db, owner)]);
  return { publicKey: keys.publicKey, devices: rows.map(deviceOf) };
}

/** Saves the browser's subscription: its notices go there from now on instead of by e-mail. */
export async function subscribeToPush(deps: PushDeps, owner: Owner, input: PushSubscribeInput, userAgent: string | undefined): Promise<PushDevice> {
  if (!isAcceptedEndpoint(input.endpoint, deps.policy)) throw new AppError('VALIDATION', m.endpointInvalid);
  const saved = await savePushSubscription(
    deps.db,
    owner,
    { endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth, userAgent: userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null },
    PUSH_SUBSCRIPTIONS_PER_USER_MAX,
    deps.now(),
  );
  if (saved === 'taken') throw new AppError('CONFLICT', m.endpointTaken);
  if (saved === 'limit') throw new AppError('CONFLICT', formatMessage(m.tooManyDevices, { max: PUSH_SUBSCRIPTIONS_PER_USER_MAX }));
  return deviceOf(saved);
}

/** Turns one browser off: its notices go by e-mail again once no browser is left. */
export async function unsubscribeFromPush(deps: PushDeps, owner: Owner, id: string): Promise<void> {
  if (!(await removePushSubscription(deps.db, owner, id))) throw new AppError('NOT_FOUND', m.notFound);
}
