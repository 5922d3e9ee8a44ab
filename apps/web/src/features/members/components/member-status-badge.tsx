import type { Member } from '@carteirinha/shared/contracts/members';
import { SUBSCRIPTION_STATUS_LABELS } from '@carteirinha/shared/contracts/subscriptions';
import { messages } from '@carteirinha/shared/messages';
import { Badge } from '@/components/ui/badge';

/** The member's latest subscription status, or 'Sem assinatura' for a patient who never subscribed. */
export function MemberStatusBadge({ member }: { member: Pick<Member, 'subscription'> }) {
  if (!member.subscription) return <Badge variant="outline">{messages.members.noSubscription}</Badge>;
  const { status } = member.subscription;
  return <Badge variant={status === 'active' ? 'default' : 'secondary'}>{SUBSCRIPTION_STATUS_LABELS[status]}</Badge>;
}

