import 'altcha/altcha.css';
import 'altcha/i18n/pt-br';
import PbkdfWorker from 'altcha/workers/pbkdf2?worker';
import 'altcha/external';

/**
 * ALTCHA's widget, loaded only by a form that needs it (ADR 029), so the first load of /auth stays small. The
 * "external" build does not inline its workers as blob: URLs: the proof of work runs in our own same-origin worker
 * file, which the Content-Security-Policy ('self') allows.
 */
globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new PbkdfWorker());

/** A widget that fetches its challenge and solves it at once, in the background, with no box on screen. */
export function createCaptchaWidget() {
  const widget = document.createElement('altcha-widget');
  widget.setAttribute('challenge', '/api/captcha/challenge');
  widget.setAttribute('auto', 'onload');
  widget.setAttribute('display', 'invisible');
  widget.setAttribute('language', 'pt-br');
  widget.setAttribute('name', 'captcha');
  return widget;
}
