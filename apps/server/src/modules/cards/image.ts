import QRCode from 'qrcode';
import sharp, { type OverlayOptions } from 'sharp';
import { formatDate } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';

const WIDTH = 1012;
const HEIGHT = 638;
const QR_SIZE = 260;
const DEFAULT_COLOR = '#0d9488';

export type CardImage = {
  clinicName: string;
  /** The clinic's brand colour (#rrggbb); the default teal otherwise. */
  primaryColor: string | null;
  personName: string;
  isDependent: boolean;
  planName: string;
  number: string;
  validUntil: Date | null;
  /** The QR's current token; null for a card that does not validate now (the card is drawn greyed, with no QR). */
  token: string | null;
};

/** Text for an SVG document: names come from people, so every markup character is escaped. */
function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** "8076 1234 5678 9012", as printed. */
export function groupedCardNumber(number: string): string {
  return number.replace(/(\d{4})(?=\d)/g, '$1 ');
}

function colorOf(card: CardImage): string {
  if (!card.token) return '#9ca3af';
  return card.primaryColor && /^#[0-9a-fA-F]{6}$/.test(card.primaryColor) ? card.primaryColor : DEFAULT_COLOR;
}

function text(x: number, y: number, size: number, value: string, weight = 400, opacity = 1): string {
  return `<text x="${x}" y="${y}" font-family="DejaVu Sans, sans-serif" font-size="${size}" font-weight="${weight}" fill="#ffffff" fill-opacity="${opacity}">${escapeXml(value)}</text>`;
}

function svgOf(card: CardImage): string {
  const role = card.isDependent ? messages.cards.imageDependent : messages.cards.imageHolder;
  const validity = card.validUntil ? `${messages.cards.imageValidUntil} ${formatDate(card.validUntil).slice(3)}` : '';
  const qrFrame = card.token
    ? `<rect x="${WIDTH - QR_SIZE - 72}" y="${HEIGHT - QR_SIZE - 72}" width="${QR_SIZE + 24}" height="${QR_SIZE + 24}" rx="16" fill="#ffffff"/>`
    : text(WIDTH - 360, HEIGHT - 80, 30, messages.cards.imageInactive, 700);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
  <rect width="${WIDTH}" height="${HEIGHT}" rx="36" fill="${colorOf(card)}"/>
  ${text(60, 100, 44, card.clinicName.slice(0, 40), 700)}
  ${text(60, 150, 28, card.planName.slice(0, 50), 400, 0.85)}
  ${text(60, 300, 24, role, 400, 0.8)}
  ${text(60, 345, 38, card.personName.slice(0, 36), 700)}
  ${text(60, 450, 40, groupedCardNumber(card.number), 400)}
  ${text(60, 520, 26, validity, 400, 0.85)}
  ${qrFrame}
</svg>`;
}

/** 'Baixar Cartão': the card as a PNG, with the current QR when the card validates now. */
export async function renderCardPng(card: CardImage): Promise<Buffer> {
  const layers: OverlayOptions[] = [];
  if (card.token) {
    const qr = await QRCode.toBuffer(card.token, { type: 'png', width: QR_SIZE, margin: 1, errorCorrectionLevel: 'M' });
    layers.push({ input: qr, left: WIDTH - QR_SIZE - 60, top: HEIGHT - QR_SIZE - 60 });
  }
  return sharp(Buffer.from(svgOf(card))).composite(layers).png().toBuffer();
}
