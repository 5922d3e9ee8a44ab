import { clinicBrandingSchema, type ClinicBranding } from '@carteirinha/shared/contracts/tenant';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload } from '@/lib/api';
import { applyBranding } from './update-branding';

/** POST /api/clinic/branding/logo (multipart, field `file`): the server re-encodes the image and answers the branding. */
export function uploadLogo(file: File): Promise<ClinicBranding> {
  const body = new FormData();
  body.append('file', file);
  return apiUpload('/api/clinic/branding/logo', clinicBrandingSchema, body);
}

export function useUploadLogo() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: uploadLogo, onSuccess: (branding) => applyBranding(queryClient, branding) });
}
