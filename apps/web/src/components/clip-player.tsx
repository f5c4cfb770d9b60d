import { clipLabel, type Clip } from '@loop/shared/photos';

/**
 * A member's voice memo or video (decisions 0023, 0024): a player that loads nothing until
 * pressed, sized so nothing shifts (a video's width and height, its poster), its length, and a
 * voice memo's transcript beside it. The transcript is plain text a member in effect sent: React
 * shows it as text, never as markup.
 */
export function ClipPlayer({ clip, author }: { clip: Clip; author: string }) {
  const label = clipLabel(clip);
  const name = `${label}, from ${author}`;
  return (
    <div className="grid min-w-0 gap-3 sm:grid-cols-[minmax(0,20rem)_minmax(0,1fr)] sm:items-start">
      <div className="grid min-w-0 gap-1">
        {clip.kind === 'audio' ? (
          <audio controls preload="none" src={clip.url} aria-label={name} className="w-full" />
        ) : (
          <video
            controls
            playsInline
            preload="none"
            src={clip.url}
            poster={clip.poster ?? undefined}
            width={clip.width}
            height={clip.height}
            aria-label={name}
            className="h-auto max-h-[70vh] w-full rounded-lg bg-black"
          />
        )}
        <p className="text-sm text-muted-foreground">{label}</p>
      </div>
      {clip.transcript && (
        <blockquote className="min-w-0 border-l-4 border-primary/30 pl-3 whitespace-pre-wrap break-words">
          <span className="sr-only">Transcript: </span>“{clip.transcript}”{' '}
          <span className="text-sm text-muted-foreground">(transcribed)</span>
        </blockquote>
      )}
    </div>
  );
}
