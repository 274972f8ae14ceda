/** Reading a statement's two files back, as a user's apps would: the PDF's text and the CSV's rows. */
import { PDFParse } from 'pdf-parse';

export async function pdfText(bytes: Uint8Array): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

/** RFC 4180 rows (quoted fields, doubled quotes, CRLF), the UTF-8 byte order mark dropped. */
export function csvRows(bytes: Uint8Array): string[][] {
  const text = Buffer.from(bytes)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

/** Sums a column of decimal shillings in cents. */
export const sumCents = (values: string[]): number =>
  values.filter(Boolean).reduce((s, v) => s + Math.round(Number(v) * 100), 0);
