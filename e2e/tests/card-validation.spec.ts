import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { patientCardListSchema, type PatientCard } from '@carteirinha/shared/contracts/cards';
import { formatMoney } from '@carteirinha/shared/format';
import jsQR from 'jsqr';
import { expect, expectAccessible, test } from '../fixtures';
import { TEST_PASSWORD, clinicOrigin, expectToast, uniqueEmail } from '../tenancy';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** The fake camera's video, one per worker: Chromium is started with its path and reads it when the camera opens. */
const CAMERA_VIDEO = path.join(os.tmpdir(), `carteirinha-e2e-camera-${process.pid}.y4m`);

// Chromium with a fake camera that plays CAMERA_VIDEO ('Ativar Câmera' below); the other tests never open it. The
// project's own launch options, plus the two camera switches.
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${CAMERA_VIDEO}`,
    ],
  },
});

/** The demo patient's own card, read from the API the page reads (the holder's comes first). */
async function demoPatientCard(page: Page): Promise<PatientCard> {
  const response = await page.request.get('/api/patient/cards');
  expect(response.status()).toBe(200);
  const [card] = patientCardListSchema.parse(await response.json()).items;
  if (!card) throw new Error('the demo patient has no card');
  return card;
}

/** The card number as the card prints it, in groups of four. */
function grouped(number: string): string {
  return number.replace(/(.{4})(?=.)/g, '$1 ');
}

type Pixels = { width: number; height: number; data: number[] };

/** The QR on screen as RGBA pixels: a screenshot of it, decoded in the page. */
async function shownQrPixels(page: Page): Promise<Pixels> {
  const png = await page.getByTestId('card-qr').screenshot();
  return page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d context');
    context.drawImage(bitmap, 0, 0);
    const pixels = context.getImageData(0, 0, bitmap.width, bitmap.height);
    return { width: pixels.width, height: pixels.height, data: Array.from(pixels.data) };
  }, png.toString('base64'));
}

/** Decodes the QR on screen as a phone camera would, with a QR decoder in the test only. */
function decodeQr(image: Pixels): string {
  const decoded = jsQR(Uint8ClampedArray.from(image.data), image.width, image.height);
  if (!decoded) throw new Error('the QR on screen could not be decoded');
  return decoded.data;
}

async function decodeShownQr(page: Page): Promise<string> {
  return decodeQr(await shownQrPixels(page));
}

/**
 * Whether the QR on screen carries the token the page says it shows. Polled: the QR may be replaced by the next one
 * between the two reads.
 */
async function expectQrCarriesShownToken(page: Page): Promise<void> {
  await expect.poll(async () => (await decodeShownQr(page)) === (await shownToken(page)), { intervals: [200] }).toBe(true);
}

/**
 * Writes `pixels`, centred on a white 640×480 picture, as a Y4M video: Chromium's fake camera
 * (--use-file-for-fake-video-capture) plays it in a loop, so the scanner sees the QR as a real camera would.
 */
function writeCameraVideo(file: string, pixels: Pixels): void {
  const width = 640;
  const height = 480;
  const luma = Buffer.alloc(width * height, 255);
  const left = Math.floor((width - pixels.width) / 2);
  const top = Math.floor((height - pixels.height) / 2);
  for (let y = 0; y < pixels.height; y++) {
    for (let x = 0; x < pixels.width; x++) {
      const at = (y * pixels.width + x) * 4;
      const [r = 255, g = 255, b = 255] = pixels.data.slice(at, at + 3);
      const row = top + y;
      const column = left + x;
      if (row >= 0 && row < height && column >= 0 && column < width) luma[row * width + column] = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
    }
  }
  // 4:2:0 chroma at half size, all neutral: a grey-scale picture.
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  fs.writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`), frame, frame, frame]));
}

async function shownToken(page: Page): Promise<string> {
  const token = await page.getByTestId('card-qr').getAttribute('data-token');
  if (!token) throw new Error('no token on the QR');
  return token;
}

async function validateAtQrCodePage(page: Page, token: string) {
  await page.goto('/clinica/validar-qrcode');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Validar QR Code');
  const input = page.getByLabel('Código do QR Code');
  await input.fill(token);
  await input.press('Enter');
}

test.describe('/paciente/cartao', () => {
  for (const [size, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    test(`shows the demo patient's card with a real QR on a ${size}`, async ({ page, signInAs, visit }) => {
      await page.setViewportSize(viewport);
      await signInAs('patient');
      const card = await demoPatientCard(page);
      await visit('/paciente/cartao');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Meu Cartão');

      const face = page.getByTestId('card-face');
      await expect(face).toContainText(card.planName);
      await expect(face).toContainText(card.personName);
      await expect(face).toContainText(grouped(card.number));
      const validity = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', month: '2-digit', year: 'numeric' }).format(new Date(card.validUntil ?? ''));
      await expect(face).toContainText(validity);
      // It reads as a card: wider than tall, and within the phone's screen.
      const box = await face.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.width).toBeLessThanOrEqual(viewport.width);
      expect(box!.width / box!.height).toBeGreaterThan(1.5);

      await expect(page.getByRole('img', { name: `QR Code do cartão de ${card.personName}` })).toBeVisible();
      expect(await shownToken(page)).toMatch(/^C1\.\d{16}\.\d{8}$/);
      await expectQrCarriesShownToken(page);
      await expect(page.getByTestId('qr-countdown')).toHaveText(/^Atualiza em \d+ s$/);

      await expect(page.getByRole('heading', { name: 'Como usar' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Seus descontos' })).toBeVisible();
      await expectAccessible(page);
    });
  }

  test('a patient without an active subscription is sent to Assinatura', async ({ page, baseURL }) => {
    // A new patient of Clínica Demo, signed up on its own host, has no subscription and so no card yet.
    const demo = clinicOrigin(baseURL, 'demo');
    // Node cannot resolve *.localhost, so the sign-up goes through the browser's form.
    await page.goto(`${demo}/auth?tab=cadastrar`);
    const form = page.getByRole('tabpanel', { name: 'Cadastrar' });
    await form.getByLabel('Nome Completo').fill('Paciente Sem Plano');
    await form.getByLabel('Email').fill(uniqueEmail());
    await form.getByLabel('Senha').fill(TEST_PASSWORD);
    await form.getByRole('button', { name: 'Cadastrar' }).click();
    await expect(page).toHaveURL(`${demo}/paciente`);
    await page.goto(`${demo}/paciente/cartao`);
    await expect(page.getByText('Você ainda não tem um cartão')).toBeVisible();
    await expect(page.getByTestId('card-qr')).toHaveCount(0);
    await page.getByRole('link', { name: 'Ver minha assinatura' }).click();
    await expect(page).toHaveURL(`${demo}/paciente/assinatura`);
  });

  test('Baixar Cartão downloads the PNG, and Compartilhar sends the image, not a link only its holder can open', async ({ page, signInAs, visit }) => {
    await signInAs('patient');
    await visit('/paciente/cartao');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Baixar Cartão' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^cartao-\d{4}\.png$/);
    await expectToast(page, 'Cartão baixado com sucesso!');

    // Headless Chromium on Linux shares no files: the image is downloaded, and the toast says so.
    const fallback = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Compartilhar' }).click();
    expect((await fallback).suggestedFilename()).toMatch(/^cartao-\d{4}\.png$/);
    await expectToast(page, 'Imagem do cartão baixada: envie-a pelo aplicativo que preferir.');
  });

  test('on a device that shares files, Compartilhar hands the card image to the share sheet', async ({ page, signInAs, visit }) => {
    // The device's share sheet, as a phone has it: it takes PNG files and records what it was given.
    await page.addInitScript(() => {
      const shared: Array<{ name: string; type: string; size: number }> = [];
      Object.assign(window, { sharedFiles: shared });
      Object.defineProperty(navigator, 'canShare', { value: (data: ShareData) => Boolean(data.files?.every((file) => file.type === 'image/png')) });
      Object.defineProperty(navigator, 'share', {
        value: async (data: ShareData) => {
          for (const file of data.files ?? []) shared.push({ name: file.name, type: file.type, size: file.size });
        },
      });
    });
    await signInAs('patient');
    await visit('/paciente/cartao');
    await page.getByRole('button', { name: 'Compartilhar' }).click();
    await expectToast(page, 'Cartão compartilhado!');
    const shared = await page.evaluate(() => (window as unknown as { sharedFiles: Array<{ name: string; type: string; size: number }> }).sharedFiles);
    expect(shared).toHaveLength(1);
    expect(shared[0]?.name).toMatch(/^cartao-\d{4}\.png$/);
    expect(shared[0]?.type).toBe('image/png');
    expect(shared[0]?.size).toBeGreaterThan(1000);
  });

  test('the QR changes by itself within 65 s, without reloading', async ({ page, signInAs, visit }) => {
    // The token's window is the server's own (30 s TOTP steps): real time has to pass, so this one test waits.
    test.setTimeout(120_000);
    await signInAs('patient');
    await visit('/paciente/cartao');
    const first = await shownToken(page);
    await expect.poll(() => shownToken(page), { timeout: 65_000, intervals: [1_000] }).not.toBe(first);
    await expectQrCarriesShownToken(page);
  });
});

test.describe('/clinica/validar-qrcode', () => {
  test("the patient's QR validates as the demo receptionist", async ({ page, signInAs, visit }) => {
    await signInAs('patient');
    const card = await demoPatientCard(page);
    await visit('/paciente/cartao');
    const token = await decodeShownQr(page);

    await page.context().clearCookies();
    await signInAs('clinicStaff');
    await validateAtQrCodePage(page, token);
    await expectToast(page, 'Cartão validado com sucesso!');
    const result = page.getByTestId('validation-result');
    await expect(result).toHaveAttribute('data-valid', 'true');
    await expect(result).toContainText('Autorizado a aplicar desconto');
    await expect(result).toContainText(card.personName);
    await expect(result).toContainText(card.planName);
    await expect(result).toContainText('Ativa');
    await expect(result).toContainText(grouped(card.number));
    await expect(result).not.toContainText('NÃO aplicar desconto');
    await expectAccessible(page);

    // Novo clears the code and the result.
    await page.getByRole('button', { name: 'Novo' }).click();
    await expect(page.getByLabel('Código do QR Code')).toHaveValue('');
    await expect(result).toHaveCount(0);
  });

  test("a made-up token shows 'NÃO aplicar desconto - assinatura inativa'; a blank one does nothing", async ({ page, signInAs, visit }) => {
    await signInAs('clinicStaff');
    await visit('/clinica/validar-qrcode');
    const input = page.getByLabel('Código do QR Code');

    let validations = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/clinic/card-validations')) validations += 1;
    });
    await input.fill('   ');
    await input.press('Enter');
    await page.getByRole('button', { name: 'Validar' }).click();
    await expect(page.getByText('Valide um cartão para ver o resultado aqui.')).toBeVisible();
    expect(validations).toBe(0);

    await input.fill('C1.1234567890123456.12345678');
    await input.press('Enter');
    await expectToast(page, 'Erro ao validar cartão: Cartão inválido ou não encontrado');
    const result = page.getByTestId('validation-result');
    await expect(result).toHaveAttribute('data-valid', 'false');
    await expect(result).toContainText('Cartão inválido ou não encontrado');
    await expect(result).toContainText('NÃO aplicar desconto - assinatura inativa');
    await expect(result).not.toContainText('Autorizado a aplicar desconto');
    expect(validations).toBe(1);
    await expect(page.getByRole('heading', { name: 'Como funciona' })).toBeVisible();
  });
});

test.describe('/clinica/validar and /clinica/atendimentos', () => {
  test('a visit registered from Validar Cartão appears in Ver Histórico and in Atendimentos', async ({ page, signInAs, visit }) => {
    await signInAs('patient');
    const card = await demoPatientCard(page);
    const serviceName = `Exame e2e ${Date.now().toString(36)}`;

    await page.context().clearCookies();
    await signInAs('clinicStaff');
    await visit('/clinica/validar');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Validar Cartão');
    const input = page.getByLabel('Número do cartão ou CPF');
    await input.fill(grouped(card.number));
    await input.press('Enter');
    const result = page.getByTestId('validation-result');
    await expect(result).toContainText('Autorizado a aplicar desconto');
    // A typed number is not the card in hand (issue 22): the answer asks for the photo or a document.
    await expect(result).toContainText('encontrado pelo número digitado. Confira a foto do titular ou um documento com foto');
    await expect(result).toContainText(card.personName);
    for (const [label, percent] of [
      ['Consultas', card.discounts.consultas],
      ['Exames', card.discounts.exames],
      ['Procedimentos', card.discounts.procedimentos],
    ] as const) {
      await expect(result.getByRole('listitem').filter({ hasText: label })).toContainText(`${percent}%`);
    }

    await result.getByRole('button', { name: 'Registrar Atendimento' }).click();
    const dialog = page.getByRole('dialog', { name: 'Registrar Atendimento' });
    await expect(dialog).toBeVisible();
    // The price list offers each service with its category and price.
    await expect(dialog.getByLabel('Serviço').locator('option').nth(1)).toHaveText(/ — (Consulta|Exame|Procedimento) — R\$ /);
    await dialog.getByLabel('Serviço').selectOption({ label: 'Outro serviço (digitar)' });
    await dialog.getByLabel('Nome do serviço').fill(serviceName);
    await dialog.getByLabel('Categoria').selectOption({ label: 'Exame' });
    await dialog.getByLabel('Valor (R$)').fill('123,45');
    const discountCents = Math.round((12_345 * card.discounts.exames) / 100);
    const preview = dialog.getByTestId('visit-preview');
    await expect(preview).toContainText(`${card.discounts.exames}%`);
    await expect(preview).toContainText(formatMoney(discountCents));
    await expect(preview).toContainText(formatMoney(12_345 - discountCents));
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expectToast(page, 'Atendimento registrado com sucesso!');
    await expect(dialog).toBeHidden();

    await result.getByRole('button', { name: 'Ver Histórico' }).click();
    const history = page.getByRole('dialog', { name: `Histórico de ${card.personName}` });
    await expect(history.getByRole('row').filter({ hasText: serviceName })).toContainText(formatMoney(12_345 - discountCents));
    await expectAccessible(page);
    await page.keyboard.press('Escape');

    await visit('/clinica/atendimentos');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Atendimentos');
    await page.getByLabel('Buscar atendimentos').fill(serviceName);
    const row = page.getByRole('row').filter({ hasText: serviceName });
    await expect(row).toContainText(card.personName);
    await expect(row).toContainText(formatMoney(12_345));
    await expect(row).toContainText(formatMoney(discountCents));
    await expect(row).toContainText(formatMoney(12_345 - discountCents));
    await expect(row).toContainText('Concluído');
  });
});

test.describe('Ativar Câmera', () => {
  test("reads the patient's QR with the camera and validates it", async ({ page, signInAs, visit, context }) => {
    await signInAs('patient');
    await visit('/paciente/cartao');
    await expect(page.getByTestId('card-qr')).toBeVisible();
    const pixels = await shownQrPixels(page);
    const token = decodeQr(pixels);
    writeCameraVideo(CAMERA_VIDEO, pixels);

    await page.context().clearCookies();
    await signInAs('clinicStaff');
    await context.grantPermissions(['camera']);
    await visit('/clinica/validar-qrcode');
    await page.getByRole('button', { name: 'Ativar Câmera' }).click();
    await expect(page.getByLabel('Código do QR Code')).toHaveValue(token, { timeout: 20_000 });
    await expect(page.getByTestId('validation-result')).toContainText('Autorizado a aplicar desconto');
    await expectToast(page, 'Cartão validado com sucesso!');
    // After a read the camera goes off.
    await expect(page.getByRole('button', { name: 'Ativar Câmera' })).toBeVisible();
  });

  test('a refused camera permission is explained in pt-BR', async ({ page, signInAs, visit }) => {
    // A camera is there (a blank picture), but the permission is not granted.
    writeCameraVideo(CAMERA_VIDEO, { width: 0, height: 0, data: [] });
    await signInAs('clinicStaff');
    await visit('/clinica/validar-qrcode');
    await page.getByRole('button', { name: 'Ativar Câmera' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Permissão da câmera negada' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Ativar Câmera' })).toBeVisible();
  });
});
