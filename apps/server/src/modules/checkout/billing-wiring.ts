import type { Database } from '../../db/client.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { merchantAccountFor, type PaymentProviders } from '../payments/providers/index.ts';
import type { Billing } from './billing.ts';

/** The checkout's view of the payments module: its providers, each clinic's merchant account, and settlement. */
export function billingOf(db: Database, providers: PaymentProviders, keyBox: SecretBox, settle: Billing['settle'] = null): Billing {
  return {
    providerForNew: () => providers.default,
    providerNamed: (name) => (name === 'local' || name === 'asaas' ? providers.byName(name) : null),
    merchantAccount: (clinicId) => merchantAccountFor(db, keyBox, clinicId),
    settle,
  };
}
