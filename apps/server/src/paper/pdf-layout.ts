import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { paperFonts } from './fonts';
import type { PaperBlock, PaperIssue, PaperPhoto } from './paper-issue';

export type Doc = InstanceType<typeof PDFDocument>;

/** Sizes in points for one layout: the regular edition, or large type for older eyes. */
export interface PaperStyle {
  large: boolean;
  body: number;
  small: number;
  h1: number;
  h2: number;
  h3: number;
  lineGap: number;
  /** The QR code's side: about 2.5 cm regular, 3.4 cm large, easy for a phone's camera. */
  qr: number;
  /** Photos side by side in a row of a gallery. */
  perRow: number;
}

export const STYLES = {
  regular: { large: false, body: 11, small: 8.5, h1: 26, h2: 15, h3: 12.5, lineGap: 3, qr: 72, perRow: 2 },
  large: { large: true, body: 16, small: 13, h1: 32, h2: 22, h3: 18, lineGap: 4, qr: 96, perRow: 1 },
} satisfies Record<string, PaperStyle>;

const INK = '#1f1b16';
const MUTED = '#5c554c';
const ACCENT = '#b4532a';

/** A new document with the layout's fonts embedded (subset to the letters used) and plain metadata. */
export function createDoc(options: {
  size: [number, number];
  margins: { top: number; bottom: number; left: number; right: number };
  title: string;
  style: PaperStyle;
}): Doc {
  const doc = new PDFDocument({
    size: options.size,
    margins: options.margins,
    bufferPages: true,
    pdfVersion: '1.7',
    lang: 'en',
    displayTitle: true,
    // Who made it is Loop: no person's name or address beyond the Loop's in the metadata.
    info: { Title: options.title, Author: 'Loop', Creator: 'Loop', Producer: 'Loop' },
  });
  const fonts = options.style.large ? paperFonts().large : paperFonts().regular;
  doc.registerFont('body', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  doc.registerFont('italic', fonts.italic);
  doc.font('body').fillColor(INK);
  return doc;
}

/** Ends the document piped into `out` and resolves once `out` has it all. */
export function finishInto(doc: Doc, out: NodeJS.WritableStream): Promise<void> {
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
    doc.on('error', reject);
  });
  doc.end();
  return done;
}

/** The document's bytes once it is ended. */
export function finish(doc: Doc): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.end();
  return done;
}

const contentWidth = (doc: Doc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;
const bottom = (doc: Doc) => doc.page.height - doc.page.margins.bottom;

/** Starts a new page unless `height` points still fit on this one. */
function keep(doc: Doc, height: number) {
  if (doc.y + height > bottom(doc)) doc.addPage();
}

/** Text a member wrote, as it may be drawn: no control characters (pdfkit draws text, never markup). */
export function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '');
}

/** The masthead: what kind of issue, the Loop's name, its period and title. */
export function drawMasthead(doc: Doc, issue: PaperIssue, style: PaperStyle) {
  const x = doc.page.margins.left;
  const width = contentWidth(doc);
  doc
    .font('bold')
    .fontSize(style.small)
    .fillColor(ACCENT)
    .text(plain(issue.kicker).toUpperCase(), x, doc.y, { width, characterSpacing: 1.5 });
  doc.moveDown(0.3);
  doc.font('bold').fontSize(style.h1).fillColor(INK).text(plain(issue.loopName), { width, lineGap: 2 });
  doc.font('italic').fontSize(style.body).fillColor(MUTED).text(plain(issue.period), { width });
  if (issue.title) doc.moveDown(0.3).font('bold').fontSize(style.h3).fillColor(INK).text(plain(issue.title), { width });
  doc.moveDown(0.6);
  rule(doc, 1.2, ACCENT);
  doc.moveDown(0.8);
}

function rule(doc: Doc, weight: number, color: string) {
  const y = doc.y;
  doc
    .save()
    .lineWidth(weight)
    .strokeColor(color)
    .moveTo(doc.page.margins.left, y)
    .lineTo(doc.page.width - doc.page.margins.right, y)
    .stroke()
    .restore();
  doc.y = y + weight;
}

/** Every block of an issue, in order, flowing over as many pages as it takes. */
export function drawBlocks(doc: Doc, blocks: PaperBlock[], style: PaperStyle) {
  for (const block of blocks) drawBlock(doc, block, style);
}

function drawBlock(doc: Doc, block: PaperBlock, style: PaperStyle) {
  const x = doc.page.margins.left;
  const width = contentWidth(doc);
  const text = { width, lineGap: style.lineGap, paragraphGap: 0 };
  switch (block.kind) {
    case 'heading': {
      const size = block.level === 1 ? style.h2 + 3 : block.level === 2 ? style.h2 : style.h3;
      doc.moveDown(0.6);
      // A heading never ends a page: it keeps two lines of what follows with it.
      keep(doc, size * 1.4 + 2 * (style.body + style.lineGap) * 1.2);
      doc
        .font('bold')
        .fontSize(size)
        .fillColor(block.level === 2 ? ACCENT : INK)
        .text(plain(block.text), x, doc.y, text);
      doc.moveDown(0.3);
      return;
    }
    case 'paragraph':
      doc
        .font(block.strong ? 'bold' : block.emphasis ? 'italic' : 'body')
        .fontSize(style.body)
        .fillColor(block.emphasis ? MUTED : INK)
        .text(plain(block.text), x, doc.y, text);
      doc.moveDown(0.5);
      return;
    case 'quote': {
      const indent = style.body * 1.2;
      const words = plain(block.text);
      doc.font('italic').fontSize(style.body);
      const height = doc.heightOfString(words, { ...text, width: width - indent });
      const top = doc.y;
      doc.fillColor(INK).text(words, x + indent, top, { ...text, width: width - indent });
      // The bar beside a quote that stayed on one page.
      if (doc.y > top)
        doc
          .save()
          .rect(x, top, 2.5, Math.min(height, doc.y - top))
          .fill(ACCENT)
          .restore();
      doc.x = x;
      doc.moveDown(0.5);
      return;
    }
    case 'item': {
      const indent = style.body * (1.4 + block.depth * 1.4);
      doc.font('body').fontSize(style.body).fillColor(INK);
      keep(doc, style.body * 1.3);
      const top = doc.y;
      doc.text(block.marker, x + indent - style.body * 1.2, top, { width: style.body * 1.2, lineBreak: false });
      doc.text(plain(block.text), x + indent, top, { ...text, width: width - indent });
      doc.x = x;
      doc.moveDown(0.25);
      return;
    }
    case 'rule':
      doc.moveDown(0.5);
      rule(doc, 0.5, MUTED);
      doc.moveDown(0.8);
      return;
    case 'photos':
      drawPhotos(doc, block.photos, style);
      return;
    case 'clip':
      drawClip(doc, block, style);
      return;
  }
}

/** The tallest a photo is drawn: most of a page, so a portrait photo and its caption fit on one. */
const maxPhotoHeight = (doc: Doc, style: PaperStyle) => (bottom(doc) - doc.page.margins.top) * (style.large ? 0.6 : 0.62);

/**
 * Photos in rows of `perRow`, each row one height (its photos side by side fill the column), a
 * caption under each. A row that does not fit below the text is drawn smaller when it keeps at
 * least half its size, else it starts the next page: no half-empty pages, no photo cut in two.
 */
function drawPhotos(doc: Doc, photos: PaperPhoto[], style: PaperStyle) {
  const gap = 10;
  const width = contentWidth(doc);
  for (let i = 0; i < photos.length; i += style.perRow) {
    const row = photos.slice(i, i + style.perRow);
    const ratios = row.map((p) => p.width / p.height);
    const full = Math.min((width - gap * (row.length - 1)) / ratios.reduce((a, b) => a + b, 0), maxPhotoHeight(doc, style));
    doc.font('italic').fontSize(style.small);
    const captionHeight = (height: number) =>
      Math.max(0, ...row.map((p, j) => (p.caption ? doc.heightOfString(plain(p.caption), { width: (ratios[j] ?? 1) * height }) + 4 : 0)));
    const room = bottom(doc) - doc.y;
    let height = full;
    if (full + captionHeight(full) > room) {
      const smaller = room - captionHeight(full * 0.5) - 2;
      if (smaller >= full * 0.5) height = smaller;
      else doc.addPage();
    }
    const rowWidth = ratios.reduce((a, b) => a + b * height, 0) + gap * (row.length - 1);
    let left = doc.page.margins.left + (width - rowWidth) / 2;
    const top = doc.y;
    row.forEach((photo, j) => {
      const w = (ratios[j] ?? 1) * height;
      doc.image(photo.jpeg, left, top, { width: w, height });
      if (photo.caption) {
        doc
          .font('italic')
          .fontSize(style.small)
          .fillColor(MUTED)
          .text(plain(photo.caption), left, top + height + 4, { width: w, align: 'center' });
      }
      left += w + gap;
    });
    doc.x = doc.page.margins.left;
    doc.y = top + height + captionHeight(height) + 10;
  }
  doc.fillColor(INK);
}

/** A voice memo or video on paper: its poster, then a QR code beside its label, caption and address. */
function drawClip(doc: Doc, clip: Extract<PaperBlock, { kind: 'clip' }>, style: PaperStyle) {
  if (clip.poster) drawPhotos(doc, [{ ...clip.poster, caption: '' }], style);
  const x = doc.page.margins.left;
  const textX = x + style.qr + 12;
  const textWidth = contentWidth(doc) - style.qr - 12;
  const how = clip.media === 'audio' ? 'Scan to listen on a phone, or open:' : 'Scan to watch on a phone, or open:';
  doc.font('bold').fontSize(style.body);
  const textHeight =
    doc.heightOfString(plain(clip.label), { width: textWidth }) +
    (clip.caption ? doc.font('italic').heightOfString(plain(clip.caption), { width: textWidth }) : 0) +
    doc.font('body').fontSize(style.small).heightOfString(`${how} ${clip.playUrl}`, { width: textWidth }) +
    8;
  keep(doc, Math.max(style.qr, textHeight));
  const top = doc.y;
  drawQr(doc, clip.playUrl, x, top, style.qr);
  doc.font('bold').fontSize(style.body).fillColor(INK).text(plain(clip.label), textX, top, { width: textWidth });
  if (clip.caption) doc.font('italic').fillColor(MUTED).text(plain(clip.caption), textX, doc.y, { width: textWidth });
  doc.moveDown(0.3);
  doc.font('body').fontSize(style.small).fillColor(MUTED).text(how, textX, doc.y, { width: textWidth });
  doc.fillColor(ACCENT).text(clip.playUrl, textX, doc.y, { width: textWidth, link: clip.playUrl });
  doc.fillColor(INK);
  doc.x = x;
  doc.y = Math.max(doc.y, top + style.qr) + 12;
}

/** A QR code drawn as vector squares (sharp at any print resolution), with its quiet zone. */
function drawQr(doc: Doc, url: string, x: number, y: number, side: number) {
  const code = QRCode.create(url, { errorCorrectionLevel: 'M' });
  const count = code.modules.size;
  const quiet = 2;
  const unit = side / (count + quiet * 2);
  doc.save().rect(x, y, side, side).fill('#ffffff');
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) {
      if (code.modules.get(row, col)) doc.rect(x + (col + quiet) * unit, y + (row + quiet) * unit, unit + 0.05, unit + 0.05);
    }
  }
  doc.fill('#000000').restore();
}

/** Every page's foot: what it is on the left, "Page 3 of 7" on the right. */
export function drawFooters(doc: Doc, left: (page: number) => string, style: PaperStyle, first = 0) {
  const range = doc.bufferedPageRange();
  const total = range.count - first;
  for (let i = first; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const margin = doc.page.margins.bottom;
    // Writing below the bottom margin would start a new page: lift the margin while drawing the foot.
    doc.page.margins.bottom = 0;
    const y = doc.page.height - margin / 2 - style.small;
    const width = contentWidth(doc);
    doc.font('body').fontSize(style.small).fillColor(MUTED);
    doc.text(plain(left(i - first + 1)), doc.page.margins.left, y, { width: width * 0.7, lineBreak: false, ellipsis: true });
    doc.text(`Page ${i - first + 1} of ${total}`, doc.page.margins.left, y, { width, align: 'right', lineBreak: false });
    doc.page.margins.bottom = margin;
  }
}
