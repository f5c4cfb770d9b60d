import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A PDF read back with Debian's poppler-utils (pdfinfo, pdffonts, pdftotext, pdfimages, pdftoppm),
 * as a printer or a reader's viewer would see it, not as the code that wrote it believes.
 */
export function readPdf(pdf: Buffer) {
  const dir = mkdtempSync(path.join(tmpdir(), 'loop-pdf-'));
  const file = path.join(dir, 'issue.pdf');
  writeFileSync(file, pdf);
  const run = (tool: string, args: string[]) => execFileSync(tool, [...args], { encoding: 'utf8' });
  const info = Object.fromEntries(
    run('pdfinfo', [file])
      .split('\n')
      .map((line) => /^([^:]+):\s*(.*)$/.exec(line))
      .filter((m) => m !== null)
      .map((m) => [m[1] ?? '', m[2] ?? '']),
  );
  // pdffonts: two header lines, then "name type encoding emb sub uni object ID".
  const fonts = run('pdffonts', [file])
    .split('\n')
    .slice(2)
    .filter((line) => line.trim())
    .map((line) => {
      const cells = line.trim().split(/\s+/);
      const [emb, sub, uni] = cells.slice(-5, -2);
      return { name: cells[0] ?? '', embedded: emb === 'yes', subset: sub === 'yes', unicode: uni === 'yes' };
    });
  const text = run('pdftotext', ['-layout', file, '-']);
  /** Every image as stored in the PDF (JPEGs as their own files, -all). */
  const images = () => {
    const out = path.join(dir, 'img');
    execFileSync('pdfimages', ['-all', file, out]);
    return readdirSync(dir)
      .filter((name) => name.startsWith('img-'))
      .map((name) => ({ name, bytes: readFileSync(path.join(dir, name)) }));
  };
  /** Page 1 as a PNG at 100 dpi, written where a person can look at it too. */
  const pageOnePng = (keepAs?: string) => {
    execFileSync('pdftoppm', ['-r', '100', '-f', '1', '-l', '1', '-png', '-singlefile', file, path.join(dir, 'page1')]);
    const png = readFileSync(path.join(dir, 'page1.png'));
    if (keepAs) writeFileSync(keepAs, png);
    return png;
  };
  return { info, fonts, text, images, pageOnePng, close: () => rmSync(dir, { recursive: true, force: true }) };
}
