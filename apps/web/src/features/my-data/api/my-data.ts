import { accountDeletionResponseSchema, cardAccessPageSchema, DELETION_CONFIRMATION, type AccountDeletionResponse } from '@carteirinha/shared/contracts/my-data';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiDownload, apiRequest } from '@/lib/api';
import { saveFile } from '@/lib/save-file';

export const MY_DATA_JSON_URL = '/api/patient/my-data/export.json';
/** The printable copy opens in a tab of its own (inline), where the browser's print prints it. */
export const MY_DATA_HTML_URL = '/api/patient/my-data/export.html';

/** GET /api/patient/my-data/card-access: a page of who looked up the patient's cards, newest first. */
export function useCardAccessLog(page: number, pageSize: number) {
  return useQuery({
    queryKey: ['my-data', 'card-access', page, pageSize],
    queryFn: ({ signal }) => apiRequest(`/api/patient/my-data/card-access?page=${page}&pageSize=${pageSize}`, cardAccessPageSchema, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** 'Baixar em JSON': settles once the file is in the browser's downloads. */
export function useDownloadMyData() {
  return useMutation({
    mutationFn: async () => {
      const { file, fileName } = await apiDownload(MY_DATA_JSON_URL);
      saveFile(file, fileName ?? 'meus-dados.json');
    },
  });
}

/** POST /api/patient/my-data/deletion with the typed confirmation: the account is anonymised and signed out. */
export function useDeleteMyAccount() {
  return useMutation({
    mutationFn: (): Promise<AccountDeletionResponse> =>
      apiRequest('/api/patient/my-data/deletion', accountDeletionResponseSchema, { method: 'POST', body: { confirmation: DELETION_CONFIRMATION } }),
  });
}
