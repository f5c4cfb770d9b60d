import { cn } from '@/lib/cn';

/** Screenshots are phone screens (375 × 667 CSS pixels at 2×), made by `npm run screenshots`. */
export const SCREENSHOT_SIZE = { width: 750, height: 1334 } as const;

export type ScreenshotName = 'sign-up' | 'create-loop' | 'members' | 'invite' | 'updates' | 'review' | 'newsletter' | 'newsletter-photos';

/** One of our own screens, WebP with a JPEG fallback, in a phone-like frame. */
export function Screenshot({
  name,
  alt,
  eager = false,
  className,
}: {
  name: ScreenshotName;
  alt: string;
  /** The first image on the page (the hero): no lazy loading, fetched first. */
  eager?: boolean;
  className?: string;
}) {
  return (
    <picture className={cn('block overflow-hidden rounded-[1.75rem] border-[6px] border-foreground/90 bg-card shadow-xl', className)}>
      <source srcSet={`/screenshots/${name}.webp`} type="image/webp" />
      <img
        src={`/screenshots/${name}.jpg`}
        alt={alt}
        width={SCREENSHOT_SIZE.width}
        height={SCREENSHOT_SIZE.height}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
        fetchPriority={eager ? 'high' : 'auto'}
        className="block h-auto w-full"
      />
    </picture>
  );
}
