import { createDoc, drawBlocks, drawMasthead, finish, finishInto, plain, type Doc, type PaperStyle } from './pdf-layout';
import type { PaperIssue } from './paper-issue';

/** US Trade, 6 x 9 in, in points; and the cover's bleed past the trim on every side, 0.125 in. */
export const TRIM = { width: 432, height: 648 };
export const BLEED = 9;
/** A perfect-bound paperback needs at least 32 interior pages (Lulu's Book Creation Guide). */
export const MIN_BOOK_PAGES = 32;
/** Spine text only on books of 80 pages or more: thinner spines print it unreliably (Lulu). */
export const SPINE_TEXT_MIN_PAGES = 80;

/**
 * The spine's width in inches for a paperback on standard paper: Lulu's formula, page count over
 * 444 plus 0.06 in for the cover board.
 */
export function spineWidthInches(pages: number): number {
  return pages / 444 + 0.06;
}

/** "The year in the Loop": a Loop's issues of a year (or range), one chapter each (decision 0070). */
export interface PaperBook {
  loopName: string;
  /** "2026", or "2025 – 2026". */
  span: string;
  /** How many issues `issues` will yield: the contents' pages are set aside before they are drawn. */
  count: number;
  /** The issues, oldest first, read one at a time so a year of photos is never in memory at once. */
  issues: AsyncIterable<PaperIssue>;
}

const BOOK_STYLE: PaperStyle = { large: false, body: 10, small: 7.5, h1: 20, h2: 13, h3: 11, lineGap: 2.5, qr: 58, perRow: 2 };
const MARGIN = { top: 50, bottom: 58, left: 54, right: 54 };
const CONTENTS_PER_PAGE = 24;

/**
 * The book's interior, written to `out` as it is drawn: a title page, the contents, a chapter per
 * issue (each on a new page, its masthead naming it), page numbers at the foot, and blank pages
 * at the end up to an even count of at least 32. Resolves with the page count, which sets the
 * cover's spine width.
 */
export async function renderBookInterior(book: PaperBook, out: NodeJS.WritableStream): Promise<number> {
  const title = `${book.loopName}: the year in the Loop, ${book.span}`;
  const doc = createDoc({ size: [TRIM.width, TRIM.height], margins: MARGIN, title, style: BOOK_STYLE });
  const addPage = () => doc.addPage();
  doc.pipe(out);
  titlePage(doc, book);
  addPage();
  doc
    .font('italic')
    .fontSize(BOOK_STYLE.small)
    .fillColor('#5c554c')
    .text('Made with Loop, from the texts and photos of its members.', MARGIN.left, TRIM.height - MARGIN.bottom - 20, {
      width: TRIM.width - MARGIN.left - MARGIN.right,
    });
  const contentsPages = Math.max(1, Math.ceil(book.count / CONTENTS_PER_PAGE));
  const contentsStart = doc.bufferedPageRange().count;
  for (let i = 0; i < contentsPages; i++) addPage();
  const chapters: { title: string; page: number }[] = [];
  for await (const issue of book.issues) {
    addPage();
    chapters.push({ title: issue.title || issue.period, page: doc.bufferedPageRange().count });
    drawMasthead(
      doc,
      {
        ...issue,
        kicker: `Chapter ${chapters.length}`,
        loopName: issue.title || issue.period,
        period: issue.sentLine.replace(/ with Loop\.$/, ''),
        title: '',
      },
      BOOK_STYLE,
    );
    drawBlocks(doc, issue.blocks, BOOK_STYLE);
  }
  while (doc.bufferedPageRange().count < MIN_BOOK_PAGES || doc.bufferedPageRange().count % 2 === 1) addPage();
  drawContents(doc, chapters, contentsStart);
  const pages = doc.bufferedPageRange().count;
  pageNumbers(doc, contentsStart);
  await finishInto(doc, out);
  return pages;
}

function titlePage(doc: Doc, book: PaperBook) {
  const width = TRIM.width - MARGIN.left - MARGIN.right;
  doc.y = TRIM.height * 0.3;
  doc.font('bold').fontSize(28).fillColor('#1f1b16').text(plain(book.loopName), MARGIN.left, doc.y, { width, align: 'center' });
  doc.moveDown(0.5);
  doc.font('italic').fontSize(14).fillColor('#b4532a').text('The year in the Loop', { width, align: 'center' });
  doc.font('body').fontSize(12).fillColor('#5c554c').text(book.span, { width, align: 'center' });
}

function drawContents(doc: Doc, chapters: { title: string; page: number }[], first: number) {
  const width = TRIM.width - MARGIN.left - MARGIN.right;
  chapters.forEach((chapter, i) => {
    const onPage = i % CONTENTS_PER_PAGE;
    if (onPage === 0) {
      doc.switchToPage(first + Math.floor(i / CONTENTS_PER_PAGE));
      doc
        .font('bold')
        .fontSize(BOOK_STYLE.h1)
        .fillColor('#1f1b16')
        .text(i === 0 ? 'Contents' : 'Contents (continued)', MARGIN.left, MARGIN.top, { width });
    }
    const y = MARGIN.top + 40 + onPage * 20;
    doc.font('body').fontSize(BOOK_STYLE.body).fillColor('#1f1b16');
    doc.text(`${i + 1}. ${plain(chapter.title)}`, MARGIN.left, y, { width: width - 40, lineBreak: false, ellipsis: true });
    doc.text(String(chapter.page), MARGIN.left, y, { width, align: 'right', lineBreak: false });
  });
}

/** Page numbers centred at the foot, from the contents on (the title page and its back carry none). */
function pageNumbers(doc: Doc, first: number) {
  const range = doc.bufferedPageRange();
  for (let i = first; i < range.count; i++) {
    doc.switchToPage(i);
    doc.page.margins.bottom = 0;
    doc.font('body').fontSize(BOOK_STYLE.small).fillColor('#5c554c');
    doc.text(String(i + 1), 0, TRIM.height - MARGIN.bottom / 2 - BOOK_STYLE.small, {
      width: TRIM.width,
      align: 'center',
      lineBreak: false,
    });
    doc.page.margins.bottom = MARGIN.bottom;
  }
}

/**
 * The cover as one spread, as printers take it: back, spine, front, with 0.125 in of bleed on
 * every side. The spine's width follows the interior's page count; its text is left off below
 * 80 pages. The front carries the year's first photo when there is one.
 */
export async function renderBookCover(
  book: Omit<PaperBook, 'issues' | 'count'> & { issues: number; cover: { jpeg: Buffer; width: number; height: number } | null },
  pages: number,
): Promise<Buffer> {
  const spine = spineWidthInches(pages) * 72;
  const size: [number, number] = [TRIM.width * 2 + spine + BLEED * 2, TRIM.height + BLEED * 2];
  const doc = createDoc({
    size,
    margins: { top: 0, bottom: 0, left: 0, right: 0 },
    title: `${book.loopName}: the year in the Loop, ${book.span} (cover)`,
    style: BOOK_STYLE,
  });
  doc.rect(0, 0, size[0], size[1]).fill('#f4efe6');
  const frontLeft = BLEED + TRIM.width + spine;
  // The spine: a band of colour, the Loop's name and span read top to bottom.
  doc.rect(BLEED + TRIM.width, 0, spine, size[1]).fill('#b4532a');
  if (pages >= SPINE_TEXT_MIN_PAGES) {
    doc.save().rotate(90, { origin: [BLEED + TRIM.width + spine / 2, size[1] / 2] });
    doc
      .font('bold')
      .fontSize(Math.min(12, spine * 0.5))
      .fillColor('#ffffff');
    doc.text(
      `${plain(book.loopName)} · ${book.span}`,
      BLEED + TRIM.width + spine / 2 - TRIM.height / 2 + 36,
      size[1] / 2 - Math.min(12, spine * 0.5) * 0.6,
      { width: TRIM.height - 72, align: 'center', lineBreak: false, ellipsis: true },
    );
    doc.restore();
  }
  const safe = 36;
  const width = TRIM.width - safe * 2;
  doc
    .font('bold')
    .fontSize(30)
    .fillColor('#1f1b16')
    .text(plain(book.loopName), frontLeft + safe, BLEED + 72, { width, align: 'center' });
  doc.moveDown(0.3).font('italic').fontSize(16).fillColor('#b4532a').text('The year in the Loop', { width, align: 'center' });
  doc.font('body').fontSize(13).fillColor('#5c554c').text(book.span, { width, align: 'center' });
  if (book.cover) {
    const top = doc.y + 24;
    const room = { width, height: BLEED + TRIM.height - safe - 24 - top };
    const scale = Math.min(room.width / book.cover.width, room.height / book.cover.height);
    const w = book.cover.width * scale;
    doc.image(book.cover.jpeg, frontLeft + safe + (width - w) / 2, top, { width: w, height: book.cover.height * scale });
  }
  doc
    .font('body')
    .fontSize(11)
    .fillColor('#1f1b16')
    .text(
      `${book.issues} ${book.issues === 1 ? 'issue' : 'issues'} of ${book.loopName}'s newsletter, as its members told it by text message.`,
      BLEED + safe,
      BLEED + 96,
      { width },
    );
  doc
    .font('italic')
    .fontSize(9)
    .fillColor('#5c554c')
    .text('Made with Loop.', BLEED + safe, BLEED + TRIM.height - safe - 12, { width });
  return finish(doc);
}
