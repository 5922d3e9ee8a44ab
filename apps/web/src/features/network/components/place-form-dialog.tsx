import { NETWORK_CATEGORIES, NETWORK_CATEGORY_LABELS, type NetworkPlace, type NetworkPlaceForm } from '@carteirinha/shared/contracts/network';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ErrorText } from '@/components/ui/error-text';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { FormField } from '@/components/ui/form-field';
import { MaskedField } from '@/components/ui/masked-field';
import { NativeSelect } from '@/components/ui/native-select';
import { TextField } from '@/components/ui/text-field';
import { Textarea } from '@/components/ui/textarea';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useCreatePlace, useUpdatePlace } from '../api/clinic-network';
import { coordinateText, typedCoordinate, type LatLng } from '../lib/geo';
import { placeFormFieldsOf, placeFormFieldsSchema, type PlaceFormFields } from '../lib/place-form';
import { NetworkMap } from './network-map';

const m = messages.network;

/** The pin the typed coordinates make, while both are numbers in range. */
function pinOf(latitude: string, longitude: string): LatLng | null {
  const lat = typedCoordinate(latitude);
  const lng = typedCoordinate(longitude);
  if (Number.isNaN(lat) || Number.isNaN(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { lat, lng };
}

function PlaceFormBody({ place, onSaved, onCancel }: { place: NetworkPlace | null; onSaved: () => void; onCancel: () => void }) {
  const {
    register,
    control,
    handleSubmit,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<PlaceFormFields, unknown, NetworkPlaceForm>({ resolver: zodResolver(placeFormFieldsSchema), defaultValues: placeFormFieldsOf(place, new Date()) });
  const createPlace = useCreatePlace();
  const updatePlace = useUpdatePlace();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [latitude, longitude] = useWatch({ control, name: ['latitude', 'longitude'] });
  const pin = pinOf(latitude, longitude);

  const pick = (position: LatLng) => {
    const options = { shouldDirty: true, shouldValidate: true };
    setValue('latitude', coordinateText(position.lat), options);
    setValue('longitude', coordinateText(position.lng), options);
  };

  const onValid = async (input: NetworkPlaceForm) => {
    setRefusal(null);
    try {
      if (place) await updatePlace.mutateAsync({ id: place.id, input });
      else await createPlace.mutateAsync(input);
      toast.success(m.saved);
      onSaved();
    } catch (error) {
      console.warn('Falha ao salvar o local da rede', error);
      setRefusal(formatMessage(m.saveError, { message: errorMessage(error) }));
    }
  };

  return (
    <form noValidate className="grid gap-4" aria-label={place ? m.editTitle : m.newTitle} onSubmit={asyncHandler(handleSubmit(onValid))}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label={m.nameLabel} autoComplete="off" error={errors.name?.message} {...register('name')} />
        <FormField label={m.categoryLabel} error={errors.category?.message}>
          {(field) => (
            <NativeSelect {...field} {...register('category')}>
              <option value="">{m.categoryPick}</option>
              {NETWORK_CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {NETWORK_CATEGORY_LABELS[category]}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
      </div>
      <TextField label={m.addressLabel} placeholder={m.addressPlaceholder} autoComplete="off" error={errors.address?.message} {...register('address')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <MaskedField control={control} name="phone" kind="phone" label={m.phoneLabel} error={errors.phone?.message} />
        <TextField label={m.hoursLabel} placeholder={m.hoursPlaceholder} autoComplete="off" error={errors.hours?.message} {...register('hours')} />
      </div>
      <FormField label={m.servicesLabel} error={errors.services?.message}>
        {(field) => <Textarea {...field} rows={3} placeholder={m.servicesPlaceholder} {...register('services')} />}
      </FormField>
      <div className="grid gap-2">
        <p className="text-sm text-muted-foreground">{m.mapHelp}</p>
        <NetworkMap label={m.mapLabel} pin={pin} onPick={pick} className="h-64 sm:h-72" />
        <div className="grid grid-cols-2 gap-4">
          <TextField label={m.latitudeLabel} inputMode="decimal" autoComplete="off" error={errors.latitude?.message} {...register('latitude')} />
          <TextField label={m.longitudeLabel} inputMode="decimal" autoComplete="off" error={errors.longitude?.message} {...register('longitude')} />
        </div>
      </div>
      <TextField label={m.lastConfirmedLabel} type="date" error={errors.lastConfirmedOn?.message} {...register('lastConfirmedOn')} />
      {refusal ? <ErrorText>{refusal}</ErrorText> : null}
      <FormDialogFooter pending={isSubmitting} onCancel={onCancel} />
    </form>
  );
}

type PlaceFormDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The place to edit; null opens 'Novo Local'. */
  place: NetworkPlace | null;
};

/** 'Novo Local' / 'Editar Local' of /clinica/rede: the place's details and its position, by a click on the map or typed. */
export function PlaceFormDialog({ open, onOpenChange, place }: PlaceFormDialogProps) {
  const close = () => onOpenChange(false);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[92dvh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{place ? m.editTitle : m.newTitle}</DialogTitle>
          <DialogDescription>{m.formDescription}</DialogDescription>
        </DialogHeader>
        {open ? <PlaceFormBody key={place?.id ?? 'new'} place={place} onSaved={close} onCancel={close} /> : null}
      </DialogContent>
    </Dialog>
  );
}
