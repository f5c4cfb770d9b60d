import { ImagePlus, SendHorizontal, X } from 'lucide-react';
import { useRef, useState, type FormEvent, type KeyboardEvent, type RefObject } from 'react';
import { SIMULATOR_IMAGE_TYPES, SIMULATOR_LIMITS } from '@loop/shared/simulator';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useSendSimulatedText } from '../api/send-simulated-text';
import { MoreAttachmentsMenu, type MoreToSend } from './more-attachments-menu';
import { toSimulatorMedia } from './photo-files';
import { usePhotoAttachments } from './use-photo-attachments';

interface ComposeBoxProps {
  phoneNumber: string;
  /** The app the phone texts from: a location pin is a WhatsApp thing. */
  whatsapp: boolean;
  firstName: string;
  draft: string;
  onDraftChange: (draft: string) => void;
  /** Lets the page put a suggestion in the box and focus it. */
  textareaRef: RefObject<HTMLTextAreaElement | null>;
}

/** The bottom of the phone: a text, photos to attach, and Send (Enter; Shift+Enter is a new line). */
export function ComposeBox({ phoneNumber, whatsapp, firstName, draft, onDraftChange, textareaRef }: ComposeBoxProps) {
  const send = useSendSimulatedText(phoneNumber);
  const attachments = usePhotoAttachments();
  const fileInput = useRef<HTMLInputElement>(null);
  const [reading, setReading] = useState(false);
  const busy = reading || send.isPending;
  const canSend = draft.trim() !== '' || attachments.photos.length > 0;

  async function submit(event?: FormEvent, more?: MoreToSend) {
    event?.preventDefault();
    if (busy || (!canSend && !more)) return;
    try {
      setReading(true);
      const media = await Promise.all(attachments.photos.map((photo) => toSimulatorMedia(photo.file)));
      setReading(false);
      await send.mutateAsync({
        body: draft,
        media,
        // A simulated pin: central London.
        ...(more && 'attachment' in more ? { attachments: [more.attachment] } : {}),
        ...(more && 'location' in more ? { location: { latitude: 51.5072, longitude: -0.1276 } } : {}),
      });
      onDraftChange('');
      attachments.clear();
      textareaRef.current?.focus();
    } catch (error) {
      setReading(false);
      toastError(errorText(error), 'Failed to send the text');
    }
  }

  function handleKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  }

  const nearLimit = draft.length > SIMULATOR_LIMITS.body - 200;

  return (
    <form onSubmit={(event) => void submit(event)} className="grid gap-2 border-t bg-card px-3 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]">
      {attachments.photos.length > 0 && (
        <ul aria-label="Photos to send" className="flex gap-2 overflow-x-auto pt-1.5 pr-1.5 pb-1">
          {attachments.photos.map((photo, index) => (
            <li key={photo.id} className="relative shrink-0">
              <img src={photo.previewUrl} alt={`Photo ${index + 1} to send`} className="size-16 rounded-lg border object-cover" />
              <button
                type="button"
                aria-label={`Remove photo ${index + 1}`}
                onClick={() => attachments.remove(photo.id)}
                disabled={busy}
                className="absolute -top-1.5 -right-1.5 flex size-6 items-center justify-center rounded-full bg-foreground text-background shadow outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-60"
              >
                <X aria-hidden="true" className="size-3.5" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {attachments.problem && (
        <p role="alert" className="rounded-lg bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {attachments.problem}
        </p>
      )}
      <div className="flex items-end gap-2">
        <input
          ref={fileInput}
          type="file"
          accept={SIMULATOR_IMAGE_TYPES.join(',')}
          multiple
          hidden
          aria-label="Attach photos"
          onChange={(event) => {
            attachments.add(event.target.files ?? []);
            // The same file may be picked again after it was removed.
            event.target.value = '';
          }}
        />
        <Button
          variant="ghost"
          size="icon"
          aria-label="Attach photos"
          title="Attach photos"
          disabled={busy}
          onClick={() => fileInput.current?.click()}
          className="rounded-full text-muted-foreground [&_svg]:size-5"
        >
          <ImagePlus aria-hidden="true" />
        </Button>
        <MoreAttachmentsMenu whatsapp={whatsapp} disabled={busy} onSend={(more) => void submit(undefined, more)} />
        <Textarea
          ref={textareaRef}
          aria-label={`Text from ${firstName}`}
          placeholder="Text message"
          rows={1}
          maxLength={SIMULATOR_LIMITS.body}
          value={draft}
          onChange={(event) => onDraftChange(event.target.value)}
          onKeyDown={handleKeyDown}
          enterKeyHint="send"
          className="field-sizing-content max-h-36 min-h-10 resize-none rounded-3xl px-4 py-2"
        />
        <Button
          type="submit"
          size="icon"
          aria-label={busy ? 'Sending…' : 'Send'}
          title="Send (Enter)"
          disabled={!canSend}
          aria-disabled={busy || undefined}
          className="rounded-full"
        >
          {busy ? <Spinner className="size-4 text-primary-foreground" label="Sending" /> : <SendHorizontal aria-hidden="true" />}
        </Button>
      </div>
      {nearLimit && (
        <p className="text-right text-xs text-muted-foreground" aria-live="polite">
          {draft.length} / {SIMULATOR_LIMITS.body}
        </p>
      )}
    </form>
  );
}
