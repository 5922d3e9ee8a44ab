import { describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { placeFormFieldsOf, placeFormFieldsSchema } from './place-form';

const m = messages.network;

describe('the Novo Local / Editar Local form', () => {
  const typed = {
    name: 'Laboratório Bela Vista',
    category: 'laboratorio',
    address: 'Rua Treze de Maio, 100 - Bela Vista, São Paulo - SP',
    phone: '(11) 3456-7890',
    hours: '',
    services: 'Hemograma\n\n  Raio X  \n',
    latitude: '-23,5601',
    longitude: '-46.6470',
    lastConfirmedOn: '2026-11-20',
  };

  it('sends what the API takes: services one per line, coordinates with a comma or a dot, blanks as null', () => {
    expect(placeFormFieldsSchema.parse(typed)).toEqual({
      name: 'Laboratório Bela Vista',
      category: 'laboratorio',
      address: 'Rua Treze de Maio, 100 - Bela Vista, São Paulo - SP',
      phone: '1134567890',
      hours: null,
      services: ['Hemograma', 'Raio X'],
      latitude: -23.5601,
      longitude: -46.647,
      lastConfirmedOn: '2026-11-20',
    });
  });

  it('puts each refusal on the field typed', () => {
    const result = placeFormFieldsSchema.safeParse({ ...typed, latitude: 'sul', longitude: '-200', category: '' });
    expect(result.success).toBe(false);
    const byField = Object.fromEntries((result.error?.issues ?? []).map((issue) => [String(issue.path[0]), issue.message]));
    expect(byField).toMatchObject({ latitude: m.latitudeInvalid, longitude: m.longitudeInvalid, category: m.categoryRequired });
  });

  it('fills in a place to edit as it was typed, and a new one confirmed today', () => {
    const fields = placeFormFieldsOf(
      { id: '00000000-0000-4000-8000-000000000001', name: 'X', category: 'clinica_parceira', address: 'Rua A, 1', phone: '11987654321', hours: null, services: ['A', 'B'], latitude: -23.5, longitude: -46.61, lastConfirmedOn: '2026-10-01' },
      new Date('2026-11-26T12:00:00Z'),
    );
    expect(fields).toMatchObject({ phone: '(11) 98765-4321', hours: '', services: 'A\nB', latitude: '-23,5', longitude: '-46,61' });
    expect(placeFormFieldsOf(null, new Date('2026-11-27T01:00:00Z')).lastConfirmedOn).toBe('2026-11-26');
  });
});
