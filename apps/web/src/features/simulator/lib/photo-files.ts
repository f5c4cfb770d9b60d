import { SIMULATOR_IMAGE_TYPES, SIMULATOR_LIMITS } from '@loop/shared/simulator';

export type PhotoType = (typeof SIMULATOR_IMAGE_TYPES)[number];

const MB = 1024 * 1024;

export function isPhotoType(type: string): type is PhotoType {
  return (SIMULATOR_IMAGE_TYPES as readonly string[]).includes(type);
}

/**
 * Why a picked file cannot be a photo, or null when it can. How many files a text carries and
 * their total size, photos and clips together, attachmentProblem (media-files.ts) checks.
 */
export function photoProblem(file: { name: string; type: string; size: number }): string | null {
  if (!isPhotoType(file.type)) return `“${file.name}” is not a photo. Attach JPEG, PNG, GIF or WebP images.`;
  if (file.size > SIMULATOR_LIMITS.photoBytes)
    return `“${file.name}” is ${(file.size / MB).toFixed(1)} MB. Each photo can be at most 5 MB.`;
  return null;
}

/**
 * The image type the bytes really are (a ".png" may hold a JPEG; the server checks), or null.
 * Only the first 12 bytes matter.
 */
export function sniffPhotoType(head: Uint8Array): PhotoType | null {
  const starts = (...bytes: number[]) => bytes.every((byte, index) => head[index] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  const webp = [0x57, 0x45, 0x42, 0x50].every((byte, index) => head[8 + index] === byte);
  if (starts(0x52, 0x49, 0x46, 0x46) && webp) return 'image/webp';
  return null;
}

/** A photo as the API takes it: its real type (the server checks the bytes too). */
export async function toSimulatorPhoto(file: File): Promise<{ file: File; name: string; contentType: PhotoType }> {
  const head = new Uint8Array(await file.slice(0, 12).arrayBuffer());
  const contentType = sniffPhotoType(head) ?? (isPhotoType(file.type) ? file.type : 'image/jpeg');
  return { file, name: file.name, contentType };
}
