/**
 * One issue as paper shows it: plain words and pictures, nothing that could be markup. The PDF
 * renderer (render-issue-pdf.ts) draws only this; issue-from-newsletter.ts builds it from what the
 * public page shows, and is the one place to change when the page's data changes shape.
 */
export interface PaperIssue {
  loopName: string;
  /** "Newsletter", "Sneak peek", with "(draft)" for the owner's preview. */
  kicker: string;
  /** The issue's own title, when it has one ("" otherwise). */
  title: string;
  /** "March 1 – 14, 2025" in the Loop's time zone. */
  period: string;
  /** The closing line: "Sent March 15, 2025 with Loop." */
  sentLine: string;
  /** The public page's absolute address, printed at the end. */
  pageUrl: string;
  blocks: PaperBlock[];
}

/** A photo ready to place: JPEG bytes with no metadata at all, at the best stored width. */
export interface PaperPhoto {
  jpeg: Buffer;
  width: number;
  height: number;
  caption: string;
}

export type PaperBlock =
  | { kind: 'heading'; level: 1 | 2 | 3; text: string }
  | { kind: 'paragraph'; text: string; strong?: boolean; emphasis?: boolean }
  | { kind: 'quote'; text: string }
  | { kind: 'item'; marker: string; depth: number; text: string }
  | { kind: 'rule' }
  /** One photo is drawn across the column; two or more side by side, two to a row. */
  | { kind: 'photos'; photos: PaperPhoto[] }
  /** A voice memo or video: its poster (a video's), its label and caption, and a QR code that plays it. */
  | { kind: 'clip'; media: 'audio' | 'video'; label: string; caption: string; playUrl: string; poster: PaperPhoto | null };

export type PaperSize = 'a4' | 'letter';

export interface PaperOptions {
  size: PaperSize;
  /** Large type for older eyes: bigger letters in Atkinson Hyperlegible, one photo to a row. */
  large: boolean;
}

/** Width and height in PDF points (1/72 in): ISO 216 A4 (210 x 297 mm) and US Letter (8.5 x 11 in). */
export const PAGE_POINTS: Record<PaperSize, [number, number]> = { a4: [595.28, 841.89], letter: [612, 792] };
