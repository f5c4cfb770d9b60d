import { describe, expect, it } from 'vitest';
import { photoProblem, sniffPhotoType } from './photo-files';

const MB = 1024 * 1024;

describe('photoProblem', () => {
  it('accepts a photo within the limits', () => {
    expect(photoProblem({ name: 'a.png', type: 'image/png', size: 1000 })).toBeNull();
    expect(photoProblem({ name: 'b.jpg', type: 'image/jpeg', size: 5 * MB })).toBeNull();
  });

  it('refuses what is not a JPEG, PNG, GIF or WebP image', () => {
    expect(photoProblem({ name: 'clip.mp4', type: 'video/mp4', size: 1000 })).toMatch(/“clip.mp4” is not a photo/);
    expect(photoProblem({ name: 'x.svg', type: 'image/svg+xml', size: 10 })).toMatch(/not a photo/);
  });

  it('refuses a photo over 5 MB', () => {
    expect(photoProblem({ name: 'big.jpg', type: 'image/jpeg', size: 5 * MB + 1 })).toMatch(/5.0 MB\. Each photo can be at most 5 MB/);
  });
});

describe('sniffPhotoType', () => {
  it('reads the type from the first bytes', () => {
    expect(sniffPhotoType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]))).toBe('image/png');
    expect(sniffPhotoType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffPhotoType(new TextEncoder().encode('GIF89a'))).toBe('image/gif');
    expect(sniffPhotoType(new TextEncoder().encode('RIFF\u0000\u0000\u0000\u0000WEBP'))).toBe('image/webp');
    expect(sniffPhotoType(new TextEncoder().encode('hello world!'))).toBeNull();
  });
});
