/**
 * The statement as CSV (RFC 4180: comma-separated, CRLF line ends, fields with a comma, quote or
 * line break quoted and their quotes doubled), UTF-8 with a byte order mark so spreadsheet apps
 * read Kiswahili and the dash right. Header in the user's language; the orders, then the totals
 * (their label in the first column, figures in the columns they sum) and the period.
 */
import { COLUMNS, rowOf, type StatementContent, totalRows } from './content.js';

/** A field as RFC 4180 writes it. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

const line = (cells: string[]) => cells.map(csvField).join(',');

export function renderCsv(c: StatementContent): Buffer {
  const lines = [line(COLUMNS.map((col) => c.say(`statements-col-${col}`)))];
  for (const o of c.orders) {
    const row = rowOf(c, o);
    lines.push(line(COLUMNS.map((col) => row[col])));
  }
  for (const total of totalRows(c))
    lines.push(line([total.label, ...COLUMNS.slice(1).map((col) => total.cells[col] ?? '')]));
  lines.push(line([c.say('statements-col-period'), c.first, c.last, 'Africa/Nairobi (UTC+3)']));
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}
