import { FileAudio, FileVideo, ImagePlus, Mic, SendHorizontal, Square, X } from 'lucide-react';
import { useRef, useState, type FormEvent, type KeyboardEvent, type RefObject } from 'react';
import { formatDuration } from '@loop/shared/media';
import { SIMULATOR_LIMITS } from '@loop/shared/simulator';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useSendSimulatedText } from '../api/send-simulated-text';
import { ATTACH_ACCEPT, toSimulatorClip } from '../lib/media-files';
import { MoreAttachmentsMenu, type MoreToSend } from './more-attachments-menu';
import { toSimulatorPhoto } from '../lib/photo-files';
import { useAttachments, type Attachment } from '../hooks/use-attachments';
import { useVoiceRecorder } from '../hooks/use-voice-recorder';

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

/**
 * The bottom of the phone: a text, photos, voice memos and videos to attach (or a voice memo to
 * record), and Send (Enter; Shift+Enter is a new line).
 */
export function ComposeBox({ phoneNumber, whatsapp, firstName, draft, onDraftChange, textareaRef }: ComposeBoxProps) {
  const send = useSendSimulatedText(phoneNumber);
  const attachments = useAttachments();
  const fileInput = useRef<HTMLInputElement>(null);
  const [accept, setAccept] = useState<string>(ATTACH_ACCEPT.all);
  const [reading, setReading] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const recorder = useVoiceRecorder({
    onStarted: () => setAnnouncement('Recording. Press Stop recording to attach the voice memo.'),
    onRecorded: (file, seconds) => {
      attachments.add([file], seconds);
      setAnnouncement(`Voice memo of ${formatDuration(seconds * 1000)} attached.`);
    },
    onProblem: (problem) => attachments.setProblem(problem),
  });
  const recording = recorder.state.status !== 'idle';
  const busy = reading || send.isPending;
  const canSend = !recording && (draft.trim() !== '' || attachments.items.length > 0);

  function pickFiles(kind: keyof typeof ATTACH_ACCEPT) {
    setAccept(ATTACH_ACCEPT[kind]);
    // The input's accept changes before the picker opens.
    window.setTimeout(() => fileInput.current?.click(), 0);
  }

  async function submit(event?: FormEvent, more?: MoreToSend) {
    event?.preventDefault();
    if (more && 'pick' in more) return pickFiles(more.pick);
    if (busy || recording || (!canSend && !more)) return;
    try {
      setReading(true);
      const files = await Promise.all(
        attachments.items.map((item) => (item.kind === 'photo' ? toSimulatorPhoto(item.file) : toSimulatorClip(item.file, item.kind))),
      );
      setReading(false);
      await send.mutateAsync({
        body: draft,
        files,
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
    <form
      onSubmit={(event) => void submit(event)}
      className="grid gap-2 border-t bg-card px-3 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]"
    >
      {attachments.items.length > 0 && (
        <ul aria-label="To send" className="flex gap-2 overflow-x-auto pt-1.5 pr-1.5 pb-1">
          {attachments.items.map((item, index) => (
            <li key={item.id} className="relative shrink-0">
              <AttachmentPreview item={item} photoNumber={attachments.items.slice(0, index + 1).filter((i) => i.kind === 'photo').length} />
              <button
                type="button"
                aria-label={`Remove ${attachmentLabel(item, attachments.items.slice(0, index + 1).filter((i) => i.kind === item.kind).length)}`}
                onClick={() => attachments.remove(item.id)}
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
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <div className="flex items-end gap-1.5">
        <input
          ref={fileInput}
          type="file"
          accept={accept}
          multiple
          hidden
          aria-label="Attach photos, voice memos or videos"
          onChange={(event) => {
            attachments.add(event.target.files ?? []);
            setAccept(ATTACH_ACCEPT.all);
            // The same file may be picked again after it was removed.
            event.target.value = '';
          }}
        />
        <Button
          variant="ghost"
          size="icon"
          aria-label="Attach photos, voice memos or videos"
          title="Attach photos, voice memos or videos"
          disabled={busy || recording}
          onClick={() => pickFiles('all')}
          // Hidden, not removed, while recording: the record button keeps its place and its focus.
          className={cn('rounded-full text-muted-foreground [&_svg]:size-5', recording && 'hidden')}
        >
          <ImagePlus aria-hidden="true" />
        </Button>
        <MoreAttachmentsMenu
          whatsapp={whatsapp}
          disabled={busy || recording}
          hidden={recording}
          onSend={(more) => void submit(undefined, more)}
        />
        <Button
          variant={recording ? 'destructive' : 'ghost'}
          size="icon"
          aria-label={recording ? 'Stop recording' : 'Record voice memo'}
          title={recording ? 'Stop recording (the memo is attached)' : 'Record voice memo'}
          // Not disabled while the microphone starts: the button keeps the keyboard focus, and becomes Stop.
          disabled={busy}
          aria-disabled={recorder.state.status === 'starting' || undefined}
          onClick={() => {
            if (recorder.state.status === 'starting') return;
            attachments.setProblem(null);
            if (recording) recorder.stop();
            else void recorder.start();
          }}
          className={recording ? 'rounded-full' : 'rounded-full text-muted-foreground [&_svg]:size-5'}
        >
          {recording ? <Square aria-hidden="true" className="fill-current" /> : <Mic aria-hidden="true" />}
        </Button>
        {recording ? (
          <div className="flex min-h-10 min-w-0 flex-1 items-center gap-2 rounded-3xl border border-destructive/40 bg-destructive/5 px-3 text-sm">
            <span aria-hidden="true" className="size-2.5 shrink-0 animate-pulse rounded-full bg-destructive" />
            <span role="timer" aria-label="Recording time" className="min-w-0 truncate font-medium tabular-nums">
              {recorder.state.status === 'recording'
                ? `Recording ${formatDuration(recorder.state.seconds * 1000)}`
                : 'Starting the microphone…'}
            </span>
            <button
              type="button"
              onClick={() => recorder.cancel()}
              className="ml-auto shrink-0 rounded-md px-1.5 py-1 text-xs font-semibold text-muted-foreground underline-offset-2 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
            >
              Discard
            </button>
          </div>
        ) : (
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
            className="field-sizing-content max-h-36 min-h-10 min-w-0 resize-none rounded-3xl px-4 py-2"
          />
        )}
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

/** "photo 2", "voice memo 1", "video 1": how a Remove button names what it removes. */
function attachmentLabel(item: Attachment, number: number): string {
  return `${item.kind === 'photo' ? 'photo' : item.kind === 'audio' ? 'voice memo' : 'video'} ${number}`;
}

/** A photo's thumbnail, or a voice memo's or video's tile with its name (and a recording's length). */
function AttachmentPreview({ item, photoNumber }: { item: Attachment; photoNumber: number }) {
  if (item.kind === 'photo' && item.previewUrl) {
    return <img src={item.previewUrl} alt={`Photo ${photoNumber} to send`} className="size-16 rounded-lg border object-cover" />;
  }
  const Icon = item.kind === 'video' ? FileVideo : FileAudio;
  return (
    <div className="flex h-16 w-36 items-center gap-2 rounded-lg border bg-muted/50 px-2.5 text-xs">
      <Icon aria-hidden="true" className="size-6 shrink-0 text-muted-foreground" />
      <span className="grid min-w-0">
        <span className="font-semibold">{item.kind === 'video' ? 'Video' : 'Voice memo'}</span>
        <span className="truncate text-muted-foreground" title={item.file.name}>
          {item.seconds === undefined ? item.file.name : formatDuration(item.seconds * 1000)}
        </span>
      </span>
    </div>
  );
}
