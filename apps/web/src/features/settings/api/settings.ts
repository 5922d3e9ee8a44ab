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

/**
 * How long 'Fazer Backup Agora' waits for its answer: the answer comes when the dump of the whole database is written —
 * seconds for the demo (past 15 s on a busy two-core machine, 27/11), minutes for a platform's years of data — so it
 * gets the dump's time, not the 15 s of a page's request, after which the admin read an error for a backup that was
 * being made.
 */
const BACKUP_TIMEOUT_MS = 10 * 60_000;

/** POST /api/admin/backups ('Fazer Backup Agora'); the last-backup line reads the settings again, whatever the answer. */
export function useBackupNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('/api/admin/backups', backupInfoSchema, { method: 'POST', timeoutMs: BACKUP_TIMEOUT_MS }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsQueryOptions.queryKey }),
  });
}
