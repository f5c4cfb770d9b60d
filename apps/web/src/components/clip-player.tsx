import { Pause, Play } from 'lucide-react';
import { useRef, useState } from 'react';
import { clipLabel, formatDuration, type Clip } from '@loop/shared/media';
import { Button } from '@/components/ui/button';

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
          <AudioPlayer src={clip.url} durationMs={clip.durationMs} name={name} />
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

/**
 * A voice memo's player: play and pause, a position slider, and "0:00 / 0:12" from the length the
 * server measured (ffprobe, decision 0023). The browser's own controls said "0:00 / 0:00" until
 * played, as nothing loads before the press. The browser's figure wins once it has one.
 */
function AudioPlayer({ src, durationMs, name }: { src: string; durationMs: number; name: string }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  const [loadedSeconds, setLoadedSeconds] = useState<number | null>(null);
  const seconds = loadedSeconds ?? durationMs / 1000;
  const time = (s: number) => formatDuration(s * 1000);
  return (
    <div role="group" aria-label={name} className="flex min-w-0 items-center gap-3 rounded-full border bg-card py-1 pr-4 pl-1">
      <audio
        ref={audio}
        preload="none"
        src={src}
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onTimeUpdate={(event) => setPosition(event.currentTarget.currentTime)}
        onDurationChange={(event) => {
          const loaded = event.currentTarget.duration;
          if (Number.isFinite(loaded) && loaded > 0) setLoadedSeconds(loaded);
        }}
      />
      <Button
        type="button"
        size="icon"
        variant="secondary"
        className="rounded-full"
        aria-label={playing ? 'Pause' : 'Play'}
        onClick={() => {
          const element = audio.current;
          if (!element) return;
          if (element.paused) void element.play().catch(() => setPlaying(false));
          else element.pause();
        }}
      >
        {playing ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />}
      </Button>
      <input
        type="range"
        aria-label="Position"
        aria-valuetext={`${time(position)} of ${time(seconds)}`}
        min={0}
        max={seconds}
        step="any"
        value={Math.min(position, seconds)}
        onChange={(event) => {
          const to = Number(event.target.value);
          setPosition(to);
          if (audio.current) audio.current.currentTime = to;
        }}
        className="h-2 min-w-0 flex-1 cursor-pointer accent-primary"
      />
      <span className="text-sm whitespace-nowrap text-muted-foreground tabular-nums">
        {time(position)} / {time(seconds)}
      </span>
    </div>
  );
}
