import { serviceFormSchema, type Service, type ServiceForm } from '@carteirinha/shared/contracts/services';
import { formatReaisInput } from '@carteirinha/shared/contracts/plans';
import { z } from 'zod';
import { typedReaisToCents } from '../../../lib/reais';

/** What the 'Novo Serviço' / 'Editar Serviço' form holds: text, as typed (the price in pt-BR reais, the % optional). */
export type ServiceFormFields = { name: string; category: string; price: string; discount: string };

/** The form's own field of each field of the API's payload, for its messages. */
const FIELD_OF: Record<string, keyof ServiceFormFields> = { name: 'name', category: 'category', priceCents: 'price', discountPercent: 'discount' };

/** A typed whole percent, or null when left blank; anything else reaches the schema as NaN and is refused there. */
function typedPercent(typed: string): number | null {
  const trimmed = typed.trim();
  return trimmed === '' ? null : Number(trimmed.replace(',', '.'));
}

/**
 * The form checked by `serviceFormSchema` itself — what the API receives — with each message shown on the field the
 * person typed, so the form and the server can never disagree.
 */
export const serviceFormFieldsSchema = z
  .object({ name: z.string(), category: z.string(), price: z.string(), discount: z.string() })
  .transform((fields, ctx): ServiceForm => {
    const parsed = serviceFormSchema.safeParse({
      name: fields.name,
      category: fields.category,
      priceCents: typedReaisToCents(fields.price) ?? Number.NaN,
      discountPercent: typedPercent(fields.discount),
    });
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      const field = FIELD_OF[String(issue.path[0])] ?? 'name';
      ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
    }
    return z.NEVER;
  });

export const EMPTY_SERVICE_FORM: ServiceFormFields = { name: '', category: '', price: '', discount: '' };

/** The form filled with a service to edit, or empty for a new one. */
export function serviceFormFieldsOf(service: Service | null): ServiceFormFields {
  if (!service) return EMPTY_SERVICE_FORM;
  return {
    name: service.name,
    category: service.category,
    price: formatReaisInput(service.priceCents),
    discount: service.discountPercent === null ? '' : String(service.discountPercent),
  };
}
