import { createDoc, drawBlocks, drawFooters, drawMasthead, finish, plain, STYLES } from './pdf-layout';
import { PAGE_POINTS, type PaperIssue, type PaperOptions } from './paper-issue';

/** Page margins: 2 cm, and 2.2 cm for large type (a steadier hold on a wider page edge). */
const MARGIN = { regular: 56.7, large: 62.4 };

/** One issue as a print-ready PDF: A4 or US Letter, fonts embedded, every page numbered (decision 0069). */
export async function renderIssuePdf(issue: PaperIssue, options: PaperOptions): Promise<Buffer> {
  const style = options.large ? STYLES.large : STYLES.regular;
  const title = [issue.loopName, issue.title || issue.period].join(': ');
  const margin = options.large ? MARGIN.large : MARGIN.regular;
  const doc = createDoc({
    size: PAGE_POINTS[options.size],
    margins: { top: margin, bottom: margin, left: margin, right: margin },
    title,
    style,
  });
  drawMasthead(doc, issue, style);
  drawBlocks(doc, issue.blocks, style);
  doc.moveDown(1);
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  doc
    .font('italic')
    .fontSize(style.small)
    .fillColor('#5c554c')
    .text(`${plain(issue.sentLine)} Read it online: ${issue.pageUrl}`, doc.page.margins.left, doc.y, { width, align: 'center' });
  drawFooters(doc, () => `${issue.loopName} · ${issue.period}`, style);
  return finish(doc);
}
