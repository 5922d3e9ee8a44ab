import {
  backupInfoSchema,
  platformSettingsSchema,
  smtpTestResultSchema,
  type PlatformSettings,
  type PlatformSettingsForm,
} from '@carteirinha/shared/contracts/settings';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

export const settingsQueryOptions = queryOptions({
  queryKey: ['admin', 'settings'],
  queryFn: ({ signal }) => apiRequest('/api/admin/settings', platformSettingsSchema, { signal }),
});

/** GET /api/admin/settings: what /admin/configuracoes shows. */
export function useSettings() {
  return useQuery(settingsQueryOptions);
}

/** PUT /api/admin/settings ('Salvar Alterações'); the answer replaces the cached settings. */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: PlatformSettingsForm) => apiRequest('/api/admin/settings', platformSettingsSchema, { method: 'PUT', body: form }),
    onSuccess: (saved: PlatformSettings) => queryClient.setQueryData(settingsQueryOptions.queryKey, saved),
  });
}

/** POST /api/admin/settings/smtp-test ('Testar Conexão'), with the SMTP fields as typed. */
export function useTestSmtp() {
  return useMutation({
    mutationFn: (form: Pick<PlatformSettingsForm, 'smtpHost' | 'smtpPort' | 'smtpUser' | 'smtpPassword'>) =>
      apiRequest('/api/admin/settings/smtp-test', smtpTestResultSchema, { method: 'POST', body: form }),
  });
}

/** POST /api/admin/backups ('Fazer Backup Agora'); the last-backup line reads the settings again. */
export function useBackupNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('/api/admin/backups', backupInfoSchema, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsQueryOptions.queryKey }),
  });
}
