import sharp from 'sharp';
import { formatDate } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';

const WIDTH = 1012;
const HEIGHT = 638;
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
  /** Whether the card validates now; one that does not is drawn greyed and says so. */
  active: boolean;
  /** The clinic's site, where whoever receives the image finds the programme (its host, e.g. demo.carteirinha.com.br). */
  siteHost: string;
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
  if (!card.active) return '#9ca3af';
  return card.primaryColor && /^#[0-9a-fA-F]{6}$/.test(card.primaryColor) ? card.primaryColor : DEFAULT_COLOR;
}

function text(x: number, y: number, size: number, value: string, weight = 400, opacity = 1): string {
  return `<text x="${x}" y="${y}" font-family="DejaVu Sans, sans-serif" font-size="${size}" font-weight="${weight}" fill="#ffffff" fill-opacity="${opacity}">${escapeXml(value)}</text>`;
}

/** The card as an SVG document, before it is rasterised. */
export function cardSvg(card: CardImage): string {
  const role = card.isDependent ? messages.cards.imageDependent : messages.cards.imageHolder;
  const validity = card.validUntil ? `${messages.cards.imageValidUntil} ${formatDate(card.validUntil).slice(3)}` : '';
  const inactive = card.active ? '' : text(WIDTH - 360, 100, 30, messages.cards.imageInactive, 700);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
  <rect width="${WIDTH}" height="${HEIGHT}" rx="36" fill="${colorOf(card)}"/>
  ${text(60, 100, 44, card.clinicName.slice(0, 40), 700)}
  ${text(60, 150, 28, card.planName.slice(0, 50), 400, 0.85)}
  ${text(60, 300, 24, role, 400, 0.8)}
  ${text(60, 345, 38, card.personName.slice(0, 36), 700)}
  ${text(60, 450, 40, groupedCardNumber(card.number), 400)}
  ${text(60, 520, 26, validity, 400, 0.85)}
  ${text(60, 585, 24, card.siteHost.slice(0, 60), 400, 0.85)}
  ${inactive}
</svg>`;
}

/**
 * 'Baixar Cartão' and 'Compartilhar': the card as a PNG. It carries no QR: the live code changes every 30 s, so a
 * printed or forwarded one would be refused at the desk a minute later (issue 23). What lasts is printed instead —
 * the number, name, plan, validity and the clinic's site; at the desk the patient opens the card for its live code, or
 * the receptionist types the number.
 */
export async function renderCardPng(card: CardImage): Promise<Buffer> {
  return sharp(Buffer.from(cardSvg(card))).png().toBuffer();
}
