import { messages } from '@carteirinha/shared/messages';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '@/lib/api';
import { saveFile } from '@/lib/save-file';
import { visitFilterParams, type VisitFilters } from './list-visits';

/** GET /api/clinic/visits.csv with the list's search and filters (UTF-8 with BOM, ';': opens in Excel pt-BR). */
export function visitsCsvUrl(q: string, filters: VisitFilters): string {
  const search = visitFilterParams(filters);
  if (q) search.set('q', q);
  const query = search.toString();
  return `/api/clinic/visits.csv${query ? `?${query}` : ''}`;
}

/** 'Exportar': settles once the file is in the browser's downloads, or with the server's reason (nothing to export). */
export function useExportVisitsCsv() {
  return useMutation({
    mutationFn: async ({ q, filters }: { q: string; filters: VisitFilters }) => {
      const { file, fileName } = await apiDownload(visitsCsvUrl(q, filters));
      saveFile(file, fileName ?? messages.visitsScreen.fileName);
    },
  });
}
