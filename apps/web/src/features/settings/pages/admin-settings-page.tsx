import { messages } from '@carteirinha/shared/messages';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { useSettings } from '../api/settings';
import { SettingsForm } from '../components/settings-form';

/** /admin/configuracoes (specification §2 "Admin Configurações"), on the persisted platform settings. */
export function AdminSettingsPage() {
  const query = useSettings();
  const { data: settings, isPending, error } = query;
  return (
    <>
      <PageHeader title={messages.settings.title} description={messages.settings.description} />
      {isPending ? <Spinner className="self-center" /> : null}
      {error && !settings ? <ErrorState {...retryPropsOf(query)} /> : null}
      {/* Keyed by the save time so the form starts again from the stored values when another admin saves. */}
      {settings ? <SettingsForm key={settings.updatedAt} settings={settings} /> : null}
    </>
  );
}
