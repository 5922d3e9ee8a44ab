import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebAppManifest } from '@carteirinha/shared/contracts/pwa';
import { clinics } from '../../db/schema.ts';
import { createClinic, createTestApp, type TestApp } from '../../../test/helpers.ts';
import { eq } from 'drizzle-orm';

let t: TestApp;
let slug: string;

beforeAll(async () => {
  t = await createTestApp();
  const { clinicId } = await createClinic(t.db, 'Clínica Sorriso Feliz');
  await t.db.update(clinics).set({ primaryColor: '#7c3aed' }).where(eq(clinics.id, clinicId));
  const [row] = await t.db.select({ slug: clinics.slug }).from(clinics).where(eq(clinics.id, clinicId));
  slug = row?.slug ?? '';
});
afterAll(() => t.close());

describe('the installable app of each host', () => {
  it("names the clinic, its colour and icons on the clinic's host, opening on the patient portal", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/app/manifest.webmanifest', headers: { host: `${slug}.localhost` } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('application/manifest+json');
    expect(response.json<WebAppManifest>()).toMatchObject({
      name: 'Clínica Sorriso Feliz',
      short_name: 'Clínica',
      start_url: '/paciente',
      display: 'standalone',
      theme_color: '#7c3aed',
      icons: expect.arrayContaining([expect.objectContaining({ sizes: '192x192' }), expect.objectContaining({ sizes: '512x512' })]),
    });
  });

  it("is the platform's own on the platform's host", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/app/manifest.webmanifest' });
    expect(response.json<WebAppManifest>()).toMatchObject({ name: 'Carteirinha', start_url: '/auth', theme_color: '#0d9488' });
  });

  it('draws the icons at 192 and 512 px in the clinic colour, and refuses other sizes', async () => {
    for (const size of [192, 512]) {
      const response = await t.app.inject({ method: 'GET', url: `/api/app/icons/${size}.png`, headers: { host: `${slug}.localhost` } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      const image = sharp(response.rawPayload);
      expect(await image.metadata()).toMatchObject({ width: size, height: size, format: 'png' });
      const { data } = await image.raw().toBuffer({ resolveWithObject: true });
      // The corner pixel is the clinic's violet.
      expect([data[0], data[1], data[2]]).toEqual([0x7c, 0x3a, 0xed]);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/app/icons/64.png' })).statusCode).toBe(400);
  });
});
