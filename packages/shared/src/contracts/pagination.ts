import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants.ts';
import { messages } from '../messages.ts';

/** Query string of every paginated, server-searched list (DESIGN.md §4). */
export const listQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** A page of `item`, with the total count for the pager. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

/**
 * Where the previous page of a growing list ended (keyset pagination): opaque to the client, which sends back the
 * `nextCursor` of the page before. base64url, so it travels in a query string as it is.
 */
export const cursorSchema = z.string().max(200).regex(/^[A-Za-z0-9_-]+$/, messages.validation.invalidRequest);

/**
 * Query string of a list that grows (visits, users, clinics): the next page is asked `after` the previous page's
 * last row, so the database reads one index range of `pageSize` rows however deep the page is. `page` is the number
 * the pager shows; without `after` it is read as an offset (the first page, or a jump back to the last page).
 */
export const keysetListQuerySchema = listQuerySchema.extend({ after: cursorSchema.optional() });
export type KeysetListQuery = z.infer<typeof keysetListQuerySchema>;

/** A page of a growing list: `nextCursor` asks for the page after it (null on the last page). */
export function keysetPageOf<T extends z.ZodType>(item: T) {
  return pageOf(item).extend({ nextCursor: z.string().nullable() });
}

export const idParamsSchema = z.object({ id: z.uuid() });
