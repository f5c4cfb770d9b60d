import { CircleAlert, Paperclip } from 'lucide-react';
import type { SimulatorMessage } from '@loop/shared/simulator';
import { cn } from '@/lib/cn';
import { formatDateTime, formatTime } from '@/lib/format-date';
import { PhotoTile } from '@/components/photo-tile';

const KIND_LABELS: Record<string, string> = {
  welcome: 'Welcome',
  reminder: 'Reminder',
  newsletter: 'Newsletter',
  sneak_peek: 'Sneak peek',
  group_message: 'Group message',
};

const CHANNEL_LABELS = { sms: 'SMS', whatsapp: 'WhatsApp' } as const;

/** What the phone's owner would see under a text: how far it got. */
export function deliveryNote(message: SimulatorMessage): { text: string; failed: boolean } | null {
  if (message.status === 'failed' || message.status === 'undelivered') return { text: 'Not delivered', failed: true };
  if (message.direction === 'inbound') {
    return { text: message.status === 'received' || message.status === 'processing' ? 'Sent' : 'Delivered', failed: false };
  }
  return message.status === 'queued' || message.status === 'sending' ? { text: 'Sending…', failed: false } : null;
}

/** One text: the member's on the right, Loop's on the left, with photos, time and delivery. */
export function MessageBubble({ message, firstName }: { message: SimulatorMessage; firstName: string }) {
  const mine = message.direction === 'inbound';
  const note = deliveryNote(message);
  const kind = mine ? undefined : KIND_LABELS[message.kind];
  const sender = mine ? firstName : 'Loop';
  return (
    <li className={cn('flex max-w-[85%] flex-col gap-1', mine ? 'items-end self-end' : 'items-start self-start')}>
      <span className="sr-only">{mine ? `${firstName} texted:` : 'Loop texted:'}</span>
      {kind && <span className="px-1 text-[11px] font-semibold tracking-wide text-muted-foreground uppercase">{kind}</span>}
      {message.photos.length > 0 && (
        <ul className={cn('grid gap-1', message.photos.length === 1 ? 'w-48 grid-cols-1' : 'w-56 grid-cols-2')}>
          {message.photos.map((photo, index) => (
            <li key={photo.url} className={message.photos.length === 1 ? 'aspect-[4/3]' : 'aspect-square'}>
              {/* One photo fills a 12rem bubble; several share a 14rem one, two to a row. */}
              <PhotoTile
                shape="fill"
                photo={photo}
                sizes={message.photos.length === 1 ? '12rem' : '7rem'}
                label={`Photo ${index + 1} from ${sender}`}
              />
            </li>
          ))}
        </ul>
      )}
      {message.attachments.length > 0 && (
        <ul aria-label="Also sent" className="flex flex-wrap justify-end gap-1">
          {message.attachments.map((label, index) => (
            <li
              key={`${label}-${index}`}
              className="flex items-center gap-1 rounded-full border bg-card px-2.5 py-1 text-xs text-card-foreground"
            >
              <Paperclip aria-hidden="true" className="size-3.5 text-muted-foreground" />
              {label}
            </li>
          ))}
        </ul>
      )}
      {message.body && (
        <p
          className={cn(
            'rounded-2xl px-3.5 py-2 text-[15px] leading-snug whitespace-pre-wrap break-words',
            mine ? 'rounded-br-md bg-primary text-primary-foreground' : 'rounded-bl-md border bg-card text-card-foreground',
            note?.failed && 'opacity-80 ring-2 ring-destructive/60',
          )}
        >
          <Linkified text={message.body} mine={mine} />
        </p>
      )}
      <p className="flex flex-wrap items-center gap-x-1.5 px-1 text-[11px] text-muted-foreground">
        <time dateTime={message.createdAt} title={formatDateTime(message.createdAt)}>
          {formatTime(message.createdAt)}
        </time>
        <span aria-hidden="true">·</span>
        <span>{CHANNEL_LABELS[message.channel]}</span>
        {note && (
          <>
            <span aria-hidden="true">·</span>
            <span className={cn(note.failed && 'flex items-center gap-1 font-semibold text-destructive')}>
              {note.failed && <CircleAlert aria-hidden="true" className="size-3.5" />}
              {note.text}
            </span>
          </>
        )}
      </p>
      {note?.failed && message.error && <p className="max-w-full px-1 text-xs break-words text-destructive">{message.error}</p>}
    </li>
  );
}

/** Links in Loop's texts (an invite, a newsletter) open in a new tab. */
function Linkified({ text, mine }: { text: string; mine: boolean }) {
  return text.split(/(https?:\/\/[^\s]+[^\s.,;:!?)'"])/g).map((part, index) =>
    index % 2 === 1 ? (
      <a
        key={index}
        href={part}
        target="_blank"
        rel="noreferrer"
        className={cn('underline underline-offset-2 break-all', mine ? 'text-primary-foreground' : 'text-primary')}
      >
        {part}
      </a>
    ) : (
      part
    ),
  );
}
