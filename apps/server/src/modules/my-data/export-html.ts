/**
 * The readable copy of 'Baixar meus dados': the same export as a printable HTML page, headed with the clinic's name
 * (never the platform's). Every value is escaped; instants are shown in São Paulo's time, each column under the pt-BR
 * name of its JSON field, the values as the JSON has them.
 */
import type { MyDataExport } from '@carteirinha/shared/contracts/my-data';
import { formatDateTime } from '@carteirinha/shared/format';
import { escapeHtml } from '@carteirinha/shared/html';
import { formatMessage, messages } from '@carteirinha/shared/messages';

const m = messages.myData;
const labels: Record<string, string> = messages.myDataExport.fields;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

function cell(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return escapeHtml(ISO_INSTANT.test(value) ? formatDateTime(value) : value);
  if (typeof value === 'boolean') return escapeHtml(value ? messages.myDataExport.yes : messages.myDataExport.no);
  if (typeof value === 'number') return escapeHtml(String(value));
  return escapeHtml(JSON.stringify(value));
}

function table(rows: readonly Record<string, unknown>[]): string {
  const [first] = rows;
  if (!first) return `<p>${escapeHtml(m.exportNone)}</p>`;
  const keys = Object.keys(first);
  const head = keys.map((key) => `<th>${escapeHtml(labels[key] ?? key)}</th>`).join('');
  const body = rows.map((row) => `<tr>${keys.map((key) => `<td>${cell(row[key])}</td>`).join('')}</tr>`).join('\n');
  return `<div class="scroll"><table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

function section(title: string, rows: readonly Record<string, unknown>[]): string {
  return `<section><h2>${escapeHtml(title)}</h2>${table(rows)}</section>`;
}

export function renderMyDataHtml(data: MyDataExport): string {
  const title = formatMessage(m.exportTitle, { clinic: data.clinic.name });
  const s = m.exportSections;
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;color:#111827;margin:24px;line-height:1.4}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
.scroll{overflow-x:auto}table{border-collapse:collapse;font-size:13px}
th,td{border:1px solid #d1d5db;padding:4px 8px;text-align:left;vertical-align:top}th{background:#f3f4f6}
@media print{.scroll{overflow:visible}body{margin:0}}
</style></head><body>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(formatMessage(m.exportGeneratedAt, { date: formatDateTime(data.generatedAt) }))}</p>
${section(s.account, [data.account])}
${section(s.profile, data.profile ? [data.profile] : [])}
${section(s.subscriptions, data.subscriptions)}
${section(s.charges, data.charges)}
${section(s.cards, data.cards)}
${section(s.cardDevices, data.cardDevices)}
${section(s.dependents, data.dependents)}
${section(s.visits, data.visits)}
${section(s.cardValidations, data.cardValidations)}
${section(s.termsAcceptances, data.termsAcceptances)}
${section(s.auditEntries, data.auditEntries)}
</body></html>`;
}
