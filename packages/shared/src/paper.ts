import { z } from 'zod';
import { newsletterPath } from './newsletters';

/** The paper edition's sizes: ISO A4 and US Letter (decision 0069). */
export const PAPER_SIZES = ['a4', 'letter'] as const;
export type PaperSizeName = (typeof PAPER_SIZES)[number];

/** GET /newsletters/{urlId}.pdf?size=a4|letter&large=1 */
export const newsletterPdfQuerySchema = z.strictObject(
  {
    size: z.enum(PAPER_SIZES, { error: 'Size must be a4 or letter' }).optional(),
    large: z.enum(['0', '1'], { error: 'Large must be 1 (large type) or 0' }).optional(),
  },
  { error: 'Only size and large can be asked of a PDF' },
);

/** The print-ready PDF of an issue; large type for older eyes with `large`. */
export function newsletterPdfPath(urlId: string, options: { large?: boolean; size?: PaperSizeName } = {}): string {
  const query = [options.size ? `size=${options.size}` : '', options.large ? 'large=1' : ''].filter(Boolean).join('&');
  return `${newsletterPath(urlId)}.pdf${query ? `?${query}` : ''}`;
}
