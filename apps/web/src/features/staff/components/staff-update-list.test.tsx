import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StaffUpdateList } from './staff-update-list';

describe('the admin update detail', () => {
  it('plays a voice memo with its length and transcript, a video with its poster and size', () => {
    const { container } = render(
      <StaffUpdateList
        total={1}
        updates={[
          {
            id: 1,
            userId: 2,
            content: '',
            createdAt: '2026-03-02T10:00:00.000Z',
            mediaUrls: [],
            photos: [],
            clips: [
              { url: '/media/memo', kind: 'audio', durationMs: 7_000, width: 0, height: 0, poster: null, transcript: 'Happy birthday!' },
              {
                url: '/media/video',
                kind: 'video',
                durationMs: 30_000,
                width: 720,
                height: 1280,
                poster: '/media/video/320',
                transcript: null,
              },
            ],
            user: { firstName: 'Ada', lastName: 'Lovelace' },
          },
        ]}
      />,
    );
    expect(container.querySelector('audio[preload="none"]')?.getAttribute('src')).toBe('/media/memo');
    // Its length on the player before it loads, not the browser's "0:00 / 0:00".
    expect(screen.getByRole('group', { name: 'Voice memo, 0:07, from Ada Lovelace' }).textContent).toContain('0:00 / 0:07');
    const video = container.querySelector('video[controls][playsinline][preload="none"]');
    expect([video?.getAttribute('poster'), video?.getAttribute('width'), video?.getAttribute('height')]).toEqual([
      '/media/video/320',
      '720',
      '1280',
    ]);
    expect(screen.getByText('Voice memo, 0:07')).toBeDefined();
    expect(screen.getByText('Video, 0:30')).toBeDefined();
    expect(container.querySelector('blockquote')?.textContent).toBe('Transcript: “Happy birthday!” (transcribed)');
  });
});
