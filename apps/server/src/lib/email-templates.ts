import { escapeHtml } from '@carteirinha/shared/html';

export type RenderedEmail = { subject: string; html: string; text: string };

type ActionEmail = {
  subject: string;
  brandName: string;
  brandColor: string;
  intro: string;
  actionLabel: string;
  actionUrl: string;
  footer: string;
};

/** A short transactional e-mail with one button, in HTML and plain text (for clients that show only text). */
export function renderActionEmail(email: ActionEmail): RenderedEmail {
  const html = `<!doctype html>
<html lang="pt-BR"><body style="margin:0;padding:24px;background:#f4f6f8;font-family:Arial,sans-serif;color:#1f2937">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
<tr><td>
<p style="font-size:20px;font-weight:bold;color:${escapeHtml(email.brandColor)};margin:0 0 24px">${escapeHtml(email.brandName)}</p>
<p style="font-size:16px;line-height:1.5;margin:0 0 24px">${escapeHtml(email.intro)}</p>
<p style="margin:0 0 24px"><a href="${escapeHtml(email.actionUrl)}" style="display:inline-block;background:${escapeHtml(email.brandColor)};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:bold">${escapeHtml(email.actionLabel)}</a></p>
<p style="font-size:13px;color:#6b7280;margin:0 0 8px">${escapeHtml(email.actionUrl)}</p>
<p style="font-size:13px;color:#6b7280;margin:0">${escapeHtml(email.footer)}</p>
</td></tr></table></body></html>`;
  const text = `${email.brandName}\n\n${email.intro}\n\n${email.actionLabel}: ${email.actionUrl}\n\n${email.footer}\n`;
  return { subject: email.subject, html, text };
}
