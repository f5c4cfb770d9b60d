import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The typefaces a PDF embeds, read from their npm packages (Fontsource, SIL Open Font License),
 * never fetched at run time (decision 0069): Literata for the regular edition, a book face made
 * for long reading; Atkinson Hyperlegible for large type, designed for readers with low vision.
 * Fontsource ships each face cut by script; the Latin cut covers Latin-1 and common punctuation.
 */
export interface FontSet {
  regular: Buffer;
  bold: Buffer;
  italic: Buffer;
}

const require = createRequire(import.meta.url);

function face(pkg: string, file: string): Buffer {
  const dir = path.dirname(require.resolve(`${pkg}/package.json`));
  return readFileSync(path.join(dir, 'files', file));
}

let cached: { regular: FontSet; large: FontSet } | null = null;

/** Both sets, read once per process (about 300 kB). */
export function paperFonts(): { regular: FontSet; large: FontSet } {
  cached ??= {
    regular: {
      regular: face('@fontsource/literata', 'literata-latin-400-normal.woff'),
      bold: face('@fontsource/literata', 'literata-latin-700-normal.woff'),
      italic: face('@fontsource/literata', 'literata-latin-400-italic.woff'),
    },
    large: {
      regular: face('@fontsource/atkinson-hyperlegible', 'atkinson-hyperlegible-latin-400-normal.woff'),
      bold: face('@fontsource/atkinson-hyperlegible', 'atkinson-hyperlegible-latin-700-normal.woff'),
      italic: face('@fontsource/atkinson-hyperlegible', 'atkinson-hyperlegible-latin-400-italic.woff'),
    },
  };
  return cached;
}
