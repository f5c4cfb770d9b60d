import { Contact, FileText, MapPin, Mic, Paperclip, Video } from 'lucide-react';
import type { SimulatorAttachment } from '@loop/shared/simulator';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';

/**
 * What the simulated phone can send besides text and photos: a video or voice memo file to pick
 * (it is attached, then sent with the text), or at once a contact card, PDF or location pin,
 * which Loop answers as it would a real one.
 */
export type MoreToSend = { attachment: SimulatorAttachment } | { location: true } | { pick: 'audio' | 'video' };

const FILES: { pick: 'audio' | 'video'; label: string; icon: typeof Video }[] = [
  { pick: 'video', label: 'A video file…', icon: Video },
  { pick: 'audio', label: 'A voice memo file…', icon: Mic },
];
const ITEMS: { attachment: SimulatorAttachment; label: string; icon: typeof Video }[] = [
  { attachment: 'contact', label: 'A contact card', icon: Contact },
  { attachment: 'pdf', label: 'A PDF', icon: FileText },
];

/** A paperclip menu: pick a video or voice memo file, or send a contact card, PDF or (on WhatsApp) a location pin at once. */
export function MoreAttachmentsMenu({
  whatsapp,
  disabled,
  hidden = false,
  onSend,
}: {
  whatsapp: boolean;
  disabled: boolean;
  /** Out of the way (while a voice memo is recorded), but kept in place. */
  hidden?: boolean;
  onSend: (what: MoreToSend) => void;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Send something else"
          title="Send a video, voice memo, contact, PDF or location"
          disabled={disabled}
          className={cn('rounded-full text-muted-foreground [&_svg]:size-5', hidden && 'hidden')}
        >
          <Paperclip aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" side="top">
        <DropdownMenuLabel className="text-xs text-muted-foreground">Send with your text</DropdownMenuLabel>
        {FILES.map(({ pick, label, icon: Icon }) => (
          <DropdownMenuItem key={pick} onSelect={() => onSend({ pick })}>
            <Icon aria-hidden="true" />
            {label}
          </DropdownMenuItem>
        ))}
        {ITEMS.map(({ attachment, label, icon: Icon }) => (
          <DropdownMenuItem key={attachment} onSelect={() => onSend({ attachment })}>
            <Icon aria-hidden="true" />
            {label}
          </DropdownMenuItem>
        ))}
        {whatsapp && (
          <DropdownMenuItem onSelect={() => onSend({ location: true })}>
            <MapPin aria-hidden="true" />
            My location
          </DropdownMenuItem>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
