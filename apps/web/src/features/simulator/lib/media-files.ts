import { isSimulatorClipType, SIMULATOR_LIMITS, type SimulatorClipType } from '@loop/shared/simulator';
import { isPhotoType, photoProblem } from './photo-files';

export type AttachmentKind = 'photo' | 'audio' | 'video';

const MB = 1024 * 1024;
const AUDIO_EXTENSIONS = ['amr', 'm4a', 'mp3', 'ogg', 'oga', 'opus', 'wav', 'flac', 'aac', 'weba'];
const VIDEO_EXTENSIONS = ['mp4', 'm4v', 'mov', 'qt', '3gp', '3gpp', 'webm'];

/** What the file picker offers: photos, and any audio or video (phones name AMR and Opus oddly). */
export const ATTACH_ACCEPT = {
  all: [
    'image/jpeg',
    'image/png',
    'image/gif',
    'image/webp',
    'audio/*',
    'video/*',
    ...AUDIO_EXTENSIONS.map((e) => `.${e}`),
    '.mov',
    '.3gp',
  ].join(','),
  audio: ['audio/*', ...AUDIO_EXTENSIONS.map((e) => `.${e}`)].join(','),
  video: ['video/*', '.mov', '.3gp', '.mp4'].join(','),
} as const;

/** A picked file is a photo, a voice memo or a video: by its type, else its name's extension; null for anything else. */
export function attachmentKind(file: { name: string; type: string }): AttachmentKind | null {
  if (isPhotoType(file.type)) return 'photo';
  if (file.type.startsWith('audio/')) return 'audio';
  if (file.type.startsWith('video/')) return 'video';
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (AUDIO_EXTENSIONS.includes(extension)) return 'audio';
  if (VIDEO_EXTENSIONS.includes(extension)) return 'video';
  return null;
}

/**
 * Why a picked file cannot join those already attached, or null when it can. `attached` are the
 * sizes in bytes of the files already there. The server holds each channel to its own limit
 * (MMS 5 MB, WhatsApp 16 MB) and says which.
 */
export function attachmentProblem(file: { name: string; type: string; size: number }, attached: number[]): string | null {
  const kind = attachmentKind(file);
  if (kind === null)
    return `“${file.name}” is not a photo, voice memo or video. Attach JPEG, PNG, GIF or WebP images, or audio or video files.`;
  const own = kind === 'photo' ? photoProblem(file) : clipProblem(file);
  if (own) return own;
  if (attached.length >= SIMULATOR_LIMITS.files)
    return `A text can carry at most ${SIMULATOR_LIMITS.files} photos, voice memos and videos.`;
  const total = attached.reduce((sum, size) => sum + size, 0) + file.size;
  if (total > SIMULATOR_LIMITS.totalBytes) return `All files of one text together can be at most ${SIMULATOR_LIMITS.totalBytes / MB} MB.`;
  return null;
}

function clipProblem(file: { name: string; size: number }): string | null {
  if (file.size === 0) return `“${file.name}” is empty.`;
  if (file.size > SIMULATOR_LIMITS.clipBytes) {
    return `“${file.name}” is ${(file.size / MB).toFixed(1)} MB. A voice memo or video can be at most ${SIMULATOR_LIMITS.clipBytes / MB} MB (5 MB by SMS/MMS).`;
  }
  return null;
}

/** The content type a voice memo or video travels as: its own where the API knows it, else by kind (the server reads the bytes). */
export function clipContentType(file: { name: string; type: string }, kind: 'audio' | 'video'): SimulatorClipType {
  const type = file.type.split(';')[0]?.trim() ?? '';
  if (isSimulatorClipType(type)) return type;
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (kind === 'video')
    return extension === 'mov' || extension === 'qt'
      ? 'video/quicktime'
      : extension === '3gp' || extension === '3gpp'
        ? 'video/3gpp'
        : 'video/mp4';
  const byExtension: Record<string, SimulatorClipType> = {
    amr: 'audio/amr',
    ogg: 'audio/ogg',
    oga: 'audio/ogg',
    opus: 'audio/ogg',
    mp3: 'audio/mpeg',
    wav: 'audio/wav',
    flac: 'audio/flac',
    aac: 'audio/aac',
    weba: 'audio/webm',
  };
  return byExtension[extension] ?? 'audio/mp4';
}

/** A voice memo or video as the API takes it: the file itself, with a content type the API knows. */
export function toSimulatorClip(file: File, kind: 'audio' | 'video'): { file: File; name: string; contentType: SimulatorClipType } {
  return { file, name: file.name, contentType: clipContentType(file, kind) };
}
