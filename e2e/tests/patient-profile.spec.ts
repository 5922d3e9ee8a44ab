import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { messages } from '@carteirinha/shared/messages';
import { expect, test } from '../fixtures';
import { TEST_PASSWORD, clinicOrigin, expectToast, latestEmailTo, linkPathIn, uniqueEmail } from '../tenancy';

const p = messages.patientProfile;
const PHONE = { width: 390, height: 844 };

/** A new patient of Clínica Demo (signed up on its host), on Meu Perfil: other tests use the demo patient's data. */
async function newPatientOnProfile(page: Page, demo: string): Promise<string> {
  const email = uniqueEmail();
  await page.goto(`${demo}/auth?tab=cadastrar`);
  const form = page.getByRole('tabpanel', { name: 'Cadastrar' });
  await form.getByLabel('Nome Completo').fill('Patrícia Perfil');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Senha').fill(TEST_PASSWORD);
  await form.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page).toHaveURL(`${demo}/paciente`);
  await page.goto(`${demo}/paciente/perfil`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.title);
  return email;
}

test.describe('/paciente/perfil', () => {
  test('a changed phone is read back after a reload; Cancelar puts back what is saved', async ({ page, baseURL }) => {
    const demo = clinicOrigin(baseURL, 'demo');
    await page.setViewportSize(PHONE);
    await newPatientOnProfile(page, demo);
    const form = page.getByTestId('profile-form');
    const phone = form.getByLabel(p.phone);

    await phone.fill('11987654321');
    await form.getByLabel(p.birthDate).fill('1990-03-15');
    await form.getByRole('button', { name: p.save }).click();
    await expectToast(page, p.updated);
    await page.reload();
    await expect(phone).toHaveValue('(11) 98765-4321');
    await expect(form.getByLabel(p.birthDate)).toHaveValue('1990-03-15');

    await phone.fill('21912345678');
    await form.getByRole('button', { name: p.cancel }).click();
    await expectToast(page, p.canceled);
    await expect(phone).toHaveValue('(11) 98765-4321');

    // A wrong number is refused beside the field; nothing is saved.
    await phone.fill('98765');
    await form.getByRole('button', { name: p.save }).click();
    await expect(form.getByText(messages.validation.invalidPhone)).toBeVisible();
    await page.reload();
    await expect(phone).toHaveValue('(11) 98765-4321');
  });

  test('a non-image and a 3 MB image are refused with the specified words; a small PNG is shown after a reload', async ({ page, baseURL }) => {
    const demo = clinicOrigin(baseURL, 'demo');
    await newPatientOnProfile(page, demo);
    const input = page.getByTestId('profile-photo-input');
    const region = page.getByRole('region', { name: p.photoTitle });

    await input.setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('não é uma foto') });
    await expect(region.getByRole('alert')).toHaveText('Por favor, selecione uma imagem válida');
    const big = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#224466' } }).png().toBuffer();
    await input.setInputFiles({ name: 'grande.png', mimeType: 'image/png', buffer: Buffer.concat([big, Buffer.alloc(3 * 1024 * 1024)]) });
    await expect(region.getByRole('alert')).toHaveText('A imagem deve ter no máximo 2MB');
    await expect(page.getByTestId('profile-photo')).toHaveCount(0);

    const png = await sharp({ create: { width: 120, height: 120, channels: 3, background: '#228844' } }).png().toBuffer();
    await input.setInputFiles({ name: 'eu.png', mimeType: 'image/png', buffer: png });
    await expectToast(page, p.photoUpdated);
    await page.reload();
    const photo = page.getByTestId('profile-photo');
    await expect(photo).toHaveAttribute('src', /^\/uploads\/avatars\/[0-9a-f]{32}\.webp$/);
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(120);
  });

  test('a new e-mail changes only when the link sent to it is opened', async ({ page, baseURL }) => {
    const demo = clinicOrigin(baseURL, 'demo');
    const email = await newPatientOnProfile(page, demo);
    const form = page.getByTestId('profile-form');
    const newEmail = uniqueEmail();
    await form.getByLabel(p.email).fill(newEmail);
    await form.getByRole('button', { name: p.save }).click();
    await expect(form.getByRole('status').filter({ hasText: newEmail })).toBeVisible();
    await expect(form.getByLabel(p.email)).toHaveValue(email);

    const mail = await latestEmailTo(baseURL, newEmail, messages.email.changeEmailSubject);
    await page.goto(`${demo}${linkPathIn(mail)}`);
    await expect(page).toHaveURL(`${demo}/paciente/perfil`);
    await expect(page.getByTestId('profile-form').getByLabel(p.email)).toHaveValue(newEmail);
  });
});
