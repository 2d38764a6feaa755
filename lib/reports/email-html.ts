/**
 * The HTML part of the report e-mail. Written for mail clients, not
 * browsers: inline styles only (clients drop <style> blocks and external
 * sheets), no image and nothing fetched from anywhere, a single fluid
 * column at most 600 px wide whose long names wrap, so it fits a 360 px
 * phone. Dark mode: `color-scheme: light dark` with the system colours
 * Canvas/CanvasText for the page, and accents that read on white and on
 * black alike; clients that ignore those keep their own readable defaults.
 * Every name comes from users, so every piece of text is escaped.
 */
import type { Figure, MailContent, Section } from './email-content';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

const FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
/** Grey at half opacity: a hairline on a light and on a dark background. */
const RULE = 'rgba(128,128,128,0.35)';
/** Red that keeps its contrast on white and on near-black. */
const ALERT = '#e5484d';
const MUTED = 'opacity:0.75';
const WRAP = 'overflow-wrap:anywhere;word-break:break-word';

function figure({ id, value, label, alert }: Figure): string {
  return (
    `<div style="display:inline-block;vertical-align:top;margin:0 28px 16px 0">` +
    `<div data-figure="${escapeHtml(id)}" style="font-size:28px;line-height:34px;font-weight:700${alert ? `;color:${ALERT}` : ''}">${escapeHtml(value)}</div>` +
    `<div style="font-size:14px;line-height:20px;${MUTED}">${escapeHtml(label)}</div></div>`
  );
}

function section({ id, heading, items, none, more }: Section): string {
  const rows = items.map(
    (item) =>
      `<tr data-item><td style="padding:10px 0 10px ${item.alert ? `10px;border-left:3px solid ${ALERT}` : '0'};border-top:1px solid ${RULE}">` +
      `<div data-name style="font-size:16px;line-height:22px;font-weight:600;${WRAP}">${escapeHtml(item.name)}</div>` +
      `<div data-detail style="font-size:14px;line-height:20px;${MUTED};${WRAP}">${escapeHtml(item.detail)}</div></td></tr>`,
  );
  const after = items.length === 0 ? none : more;
  return (
    `<tr><td data-section="${escapeHtml(id)}" style="padding:20px 0 0">` +
    `<h2 style="margin:0 0 8px;font-size:17px;line-height:24px;font-weight:700">${escapeHtml(heading)}</h2>` +
    (rows.length
      ? `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="width:100%;border-collapse:collapse">${rows.join('')}</table>`
      : '') +
    (after ? `<p style="margin:8px 0 0;font-size:14px;line-height:20px;${MUTED}">${escapeHtml(after)}</p>` : '') +
    `</td></tr>`
  );
}

function csv(content: MailContent): string {
  const { csv } = content;
  const action = csv.attached
    ? `<div style="font-size:15px;line-height:22px;font-weight:600;${WRAP}">${escapeHtml(csv.fileName)}</div>`
    : `<a href="${escapeHtml(csv.link)}" style="display:inline-block;padding:12px 20px;border-radius:6px;background-color:#1f6feb;color:#ffffff;font-size:16px;font-weight:600;text-decoration:none">Download the CSV</a>`;
  return (
    `<tr><td data-section="csv" style="padding:24px 0 0">` +
    `<p style="margin:0 0 12px;font-size:15px;line-height:22px">${escapeHtml(csv.description)}</p>${action}</td></tr>`
  );
}

export function renderHtml(content: MailContent): string {
  const body = [
    `<tr><td><h1 style="margin:0;font-size:24px;line-height:30px;font-weight:700">${escapeHtml(content.title)}</h1>` +
      `<p style="margin:4px 0 20px;font-size:14px;line-height:20px;${MUTED};${WRAP}">${escapeHtml(content.made)}<br>${escapeHtml(content.reference)}</p></td></tr>`,
    `<tr><td data-figures>${content.figures.map(figure).join('')}` +
      (content.note ? `<p style="margin:0;font-size:14px;line-height:20px;${MUTED}">${escapeHtml(content.note)}</p>` : '') +
      `</td></tr>`,
    ...content.sections.map(section),
    csv(content),
    `<tr><td style="padding:32px 0 0;font-size:13px;line-height:18px;${MUTED}">${escapeHtml(content.footer)}</td></tr>`,
  ];
  return (
    `<!DOCTYPE html><html lang="en" style="color-scheme:light dark"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark">` +
    `<title>${escapeHtml(content.subject)}</title></head>` +
    `<body style="margin:0;padding:0;background-color:Canvas;color:CanvasText;${FONT}">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="width:100%;border-collapse:collapse;background-color:Canvas;color:CanvasText">` +
    `<tr><td align="center" style="padding:24px 16px">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="width:100%;max-width:600px;border-collapse:collapse;text-align:left">` +
    body.join('') +
    `</table></td></tr></table></body></html>\n`
  );
}
