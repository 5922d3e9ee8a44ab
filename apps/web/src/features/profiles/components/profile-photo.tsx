import type { PatientProfile } from '@carteirinha/shared/contracts/profiles';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { CameraIcon, UserRoundIcon } from 'lucide-react';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/section-card';
import { errorMessage } from '@/lib/error-message';
import { imageFileProblem } from '@/lib/image-file';
import { toast } from '@/lib/toasts';
import { useUploadMyPhoto } from '../api/update-my-profile';

const p = messages.patientProfile;

/**
 * The photo the card and the clinic's validation show. The §5 rules are checked before sending (the server sniffs and
 * re-encodes the bytes again); a refusal is written under the photo, where the patient is looking, and in a toast.
 */
export function ProfilePhoto({ profile }: { profile: PatientProfile }) {
  const input = useRef<HTMLInputElement>(null);
  const helpId = useId();
  const upload = useUploadMyPhoto();
  const [problem, setProblem] = useState<string | null>(null);

  const onFileChosen = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again (after fixing it) still fires a change.
    event.target.value = '';
    if (!file) return;
    const refused = imageFileProblem(file);
    setProblem(refused);
    if (refused) {
      toast.error(p.uploadError, { description: refused });
      return;
    }
    upload.mutate(file, {
      onSuccess: () => toast.success(p.photoUpdated),
      onError: (error) => {
        const message = errorMessage(error);
        setProblem(message);
        toast.error(p.uploadError, { description: message });
      },
    });
  };

  return (
    <SectionCard id="profile-photo-title" title={p.photoTitle} className="flex flex-wrap items-center gap-4">
        {profile.photoUrl ? (
          <img src={profile.photoUrl} alt={formatMessage(p.photoAlt, { name: profile.fullName })} data-testid="profile-photo" className="size-24 rounded-full border object-cover" />
        ) : (
          <div className="flex size-24 items-center justify-center rounded-full border border-dashed text-muted-foreground">
            <UserRoundIcon className="size-10" aria-hidden="true" />
          </div>
        )}
        <div className="grid gap-2">
          <input ref={input} type="file" accept="image/*" className="sr-only" tabIndex={-1} aria-hidden="true" onChange={onFileChosen} data-testid="profile-photo-input" />
          <Button type="button" variant="outline" disabled={upload.isPending} aria-describedby={helpId} onClick={() => input.current?.click()}>
            <CameraIcon aria-hidden="true" />
            {upload.isPending ? p.uploading : p.changePhoto}
          </Button>
          <p id={helpId} className="text-sm text-muted-foreground">
            {p.photoHelp}
          </p>
          {problem ? (
            <p role="alert" className="text-sm text-destructive">
              {problem}
            </p>
          ) : null}
        </div>
    </SectionCard>
  );
}
