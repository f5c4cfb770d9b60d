import { describe, expect, it } from 'vitest';
import { attachmentKind, attachmentProblem, clipContentType } from './media-files';

const MB = 1024 * 1024;

describe('attachmentKind', () => {
  it('tells photos, voice memos and videos apart by type, else by extension', () => {
    expect(attachmentKind({ name: 'a.png', type: 'image/png' })).toBe('photo');
    expect(attachmentKind({ name: 'memo.webm', type: 'audio/webm' })).toBe('audio');
    expect(attachmentKind({ name: 'clip.mov', type: 'video/quicktime' })).toBe('video');
    // Browsers often give AMR and Opus no type at all.
    expect(attachmentKind({ name: 'Recording.AMR', type: '' })).toBe('audio');
    expect(attachmentKind({ name: 'note.opus', type: '' })).toBe('audio');
    expect(attachmentKind({ name: 'x.3gp', type: '' })).toBe('video');
    expect(attachmentKind({ name: 'doc.pdf', type: 'application/pdf' })).toBeNull();
    expect(attachmentKind({ name: 'x.svg', type: 'image/svg+xml' })).toBeNull();
  });
});

describe('attachmentProblem', () => {
  it('takes a voice memo or video up to 16 MB, with photos, within 20 MB in all', () => {
    expect(attachmentProblem({ name: 'memo.ogg', type: 'audio/ogg', size: 16 * MB }, [])).toBeNull();
    expect(attachmentProblem({ name: 'big.mp4', type: 'video/mp4', size: 16 * MB + 1 }, [])).toMatch(
      /^“big.mp4” is 16.0 MB\. A voice memo or video can be at most 16 MB \(5 MB by SMS\/MMS\)\.$/,
    );
    expect(attachmentProblem({ name: 'memo.ogg', type: 'audio/ogg', size: 0 }, [])).toBe('“memo.ogg” is empty.');
    expect(attachmentProblem({ name: 'memo.ogg', type: 'audio/ogg', size: 6 * MB }, [15 * MB])).toMatch(/at most 20 MB/);
    expect(attachmentProblem({ name: 'doc.pdf', type: 'application/pdf', size: 10 }, [])).toMatch(/is not a photo, voice memo or video/);
    expect(attachmentProblem({ name: 'big.jpg', type: 'image/jpeg', size: 5 * MB + 1 }, [])).toMatch(/Each photo can be at most 5 MB/);
  });

  it('counts photos and clips together: an eleventh file of any kind, and 20 MB in all', () => {
    const eleventh = 'A text can carry at most 10 photos, voice memos and videos.';
    expect(attachmentProblem({ name: 'c.gif', type: 'image/gif', size: 1 }, Array<number>(10).fill(1))).toBe(eleventh);
    expect(attachmentProblem({ name: 'memo.ogg', type: 'audio/ogg', size: 1 }, Array<number>(10).fill(1))).toBe(eleventh);
    expect(attachmentProblem({ name: 'd.webp', type: 'image/webp', size: 5 * MB }, [5 * MB, 5 * MB, 5 * MB - 1, 2])).toBe(
      'All files of one text together can be at most 20 MB.',
    );
  });
});

describe('clipContentType', () => {
  it('keeps a type the API knows, else names one by extension and kind', () => {
    expect(clipContentType({ name: 'voice-memo.webm', type: 'audio/webm;codecs=opus' }, 'audio')).toBe('audio/webm');
    expect(clipContentType({ name: 'Recording.amr', type: '' }, 'audio')).toBe('audio/amr');
    expect(clipContentType({ name: 'note.m4a', type: 'audio/x-m4a' }, 'audio')).toBe('audio/mp4');
    expect(clipContentType({ name: 'IMG_0001.MOV', type: '' }, 'video')).toBe('video/quicktime');
  });
});
