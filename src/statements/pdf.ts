/**
 * The statement as a PDF, drawn with pdfkit in this process (no browser): title, period, totals,
 * then the orders as a table, two lines each (the figures, then the transaction hash under them),
 * its header repeated on every page. Helvetica, one of the 14 fonts every PDF reader has, so
 * nothing is embedded and the file stays small; the texts are Latin script in both languages.
 */
import PDFDocument from 'pdfkit';
import { type Column, periodLine, rowOf, type StatementContent, titleLine, totalRows } from './content.js';

/** Line one of an order: its columns and their widths in points (A4 landscape, 770 pt of text). */
const WIDTHS: Array<[Exclude<Column, 'hash'>, number]> = [
  ['date', 64],
  ['order', 104],
  ['side', 40],
  ['state', 58],
  ['network', 52],
  ['token', 40],
  ['tokens', 66],
  ['amount', 58],
  ['fee', 44],
  ['feeTokens', 58],
  ['paid', 58],
  ['received', 58],
  ['receipt', 66],
];
const MARGIN = 36;
const SIZE = 7.5;
const ROW = 21;

export function renderPdf(c: StatementContent): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: MARGIN,
    info: { Title: titleLine(c), Creator: 'rampchat' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const bottom = doc.page.height - MARGIN;

  doc.font('Helvetica-Bold').fontSize(16).text(titleLine(c), MARGIN, MARGIN);
  doc.font('Helvetica').fontSize(10).text(periodLine(c));
  doc.moveDown(0.6).font('Helvetica-Bold').fontSize(10).text(c.say('statements-totals-heading'));
  doc.font('Helvetica').fontSize(9);
  for (const total of totalRows(c)) {
    const figures = (['paid', 'fee', 'received', 'tokens', 'feeTokens'] as const)
      .filter((col) => total.cells[col] !== undefined)
      .map(
        (col) =>
          `${c.say(`statements-col-${col}`)}: ${total.cells[col]}${col === 'tokens' || col === 'feeTokens' ? ` ${total.cells.token} (${total.cells.network})` : ''}`,
      );
    doc.text(`${total.label}: ${figures.join(', ')}`);
  }
  doc.moveDown(0.8);

  let y = doc.y;
  const header = () => {
    doc.font('Helvetica-Bold').fontSize(SIZE);
    let x = MARGIN;
    for (const [col, width] of WIDTHS) {
      doc.text(c.say(`statements-col-${col}`), x, y, { width: width - 4, lineBreak: false });
      x += width;
    }
    // Room for a header that wraps to two lines in its column ("Ulichopokea KES").
    y += 20;
    doc
      .moveTo(MARGIN, y - 2)
      .lineTo(doc.page.width - MARGIN, y - 2)
      .lineWidth(0.5)
      .stroke();
    doc.font('Helvetica').fontSize(SIZE);
  };
  header();
  for (const o of c.orders) {
    if (y + ROW > bottom) {
      doc.addPage();
      y = MARGIN;
      header();
    }
    const row = rowOf(c, o);
    let x = MARGIN;
    for (const [col, width] of WIDTHS) {
      doc.text(row[col], x, y, { width: width - 4, lineBreak: false });
      x += width;
    }
    if (row.hash)
      doc
        .fillColor('#555555')
        .text(`${c.say('statements-col-hash')}: ${row.hash}`, MARGIN + 64, y + 9, { lineBreak: false })
        .fillColor('black');
    y += ROW;
  }
  doc.end();
  return done;
}
