/** A member's photo as every page shows it: stored sizes of one upright, metadata-free picture. */
export interface Photo {
  /** /media/{key}: the largest stored size. Each width is at /media/{key}/{width}. */
  url: string;
  /** The largest size's pixels: set on <img> so nothing shifts while it loads. */
  width: number;
  height: number;
  /** The stored widths, smallest first (for example 320, 640, 1280). */
  widths: number[];
}

/** The srcset of a photo: every stored width. */
export function photoSrcset(photo: Photo): string {
  return photo.widths.map((w) => `${photo.url}/${w} ${w}w`).join(', ');
}
