import { priceTableSchema, type PriceTable } from '@carteirinha/shared/contracts/services';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** GET /api/public/price-table[?date=]: this clinic site's table today, or as it was at the end of a past day. */
export function usePriceTable(day: string | undefined) {
  return useQuery({
    queryKey: ['price-table', day ?? 'today'],
    queryFn: ({ signal }): Promise<PriceTable> => {
      const query = day ? `?${new URLSearchParams({ date: day }).toString()}` : '';
      return apiRequest(`/api/public/price-table${query}`, priceTableSchema, { signal });
    },
    // The table of the day before stays on screen while the next one arrives.
    placeholderData: keepPreviousData,
  });
}
