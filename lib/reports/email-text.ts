/**
 * The plain-text part of the report e-mail: the same content as the HTML
 * part, for mail clients (and people) that read text. Lines end in CRLF, the
 * canonical form of text in MIME; email.ts encodes the part, so a long
 * download link or a name in any script travels intact.
 */
import type { MailContent } from './email-content';

export function renderText(content: MailContent): string {
  const lines = [
    content.title,
    content.made,
    content.reference,
    '',
    content.figures.map((figure) => `${figure.value} ${figure.label}`).join(', ') + '.',
  ];
  if (content.note) lines.push(content.note);
  for (const section of content.sections) {
    lines.push('', section.heading);
    if (section.items.length === 0) lines.push(section.none);
    for (const item of section.items) lines.push(`- ${item.name}: ${item.detail}`);
    if (section.more) lines.push(section.more);
  }
  lines.push('', content.csv.description);
  lines.push(content.csv.attached ? content.csv.fileName : content.csv.link);
  lines.push('', content.footer);
  return lines.join('\r\n') + '\r\n';
}
