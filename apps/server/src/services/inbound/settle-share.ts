import type { InboundMedia, UnsupportedMedia } from '../../messaging/inbound-media';
import { replies } from '../../messaging/replies';
import type { Outcome } from './decide-inbound';

/** What a text's media came to, as far as the reply needs it. */
export type SharedMedia = Pick<InboundMedia, 'refused' | 'refusedClips' | 'unsupported'> & {
  photos: number;
  clips: readonly { kind: 'audio' | 'video' }[];
};

/** A text with nothing attached (the batch of fast texts). */
export const NO_MEDIA: SharedMedia = {
  photos: 0,
  clips: [],
  refused: [],
  refusedClips: [],
  unsupported: { audioVideo: 0, contacts: 0, files: [] },
};

/**
 * How a text going to Loops ends once its media are known: stored with the "Thanks" reply and
 * notes on what could not be shared, or ignored (nothing to share) with the reply saying why.
 */
export function settleShare(
  share: Extract<Outcome, { kind: 'share' }>,
  media: SharedMedia,
): { status: 'processed' | 'ignored'; store: boolean; reply: string } {
  const unsupported = unsupportedReplies(media.unsupported, share.location);
  const nothing = share.content === '' && media.photos === 0 && media.clips.length === 0;
  // A voice memo or video alone that could not be kept: the reply says why and what to send instead.
  if (nothing && media.refusedClips.length > 0) unsupported.push(replies.clipsSkipped(media.refusedClips));
  if (nothing) return { status: 'ignored', store: false, reply: unsupported.length > 0 ? unsupported.join(' ') : replies.nothingToShare() };
  const notes = [
    replies.shared(
      share.firstName,
      share.loops.map((l) => l.name),
      media.photos,
      media.clips,
    ),
    ...unsupported,
  ];
  if (media.refused.length > 0) notes.push(replies.photosSkipped(media.refused));
  if (media.refusedClips.length > 0) notes.push(replies.clipsSkipped(media.refusedClips));
  return { status: 'processed', store: true, reply: notes.join(' ') };
}

/** The replies for what a text carried that Loop cannot share, one per kind of thing. */
function unsupportedReplies(unsupported: UnsupportedMedia, location: boolean): string[] {
  const notes: string[] = [];
  if (unsupported.audioVideo > 0) notes.push(replies.clipsUnavailable());
  if (unsupported.contacts > 0) notes.push(replies.cannotShare(unsupported.contacts === 1 ? 'a contact card' : 'contact cards'));
  if (unsupported.files.length > 0) notes.push(replies.cannotShare(describeFiles(unsupported.files)));
  if (location) notes.push(replies.location());
  return notes;
}

function describeFiles(types: string[]): string {
  const pdfs = types.filter((t) => t === 'application/pdf').length;
  if (pdfs === types.length) return pdfs === 1 ? 'a PDF' : 'PDFs';
  return types.length === 1 ? 'that kind of file' : 'those kinds of files';
}
