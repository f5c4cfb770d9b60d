import { CalendarClock, Check, Eye, FileText, Newspaper, Pencil, RefreshCw, Send, SkipForward, Undo2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { newsletterPath, type LoopNewsletters, type Newsletter, type NewsletterAudience } from '@loop/shared/newsletters';
import { newsletterPdfPath } from '@loop/shared/paper';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogSubmitFooter,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { CardSpinner } from '@/components/ui/spinner';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { formatInZone } from '@/lib/format-date';
import { useLoopNewsletters } from '../api/get-loop-newsletters';
import { PAUSED_NEXT } from './loop-next-steps';
import { useReviewNewsletter, useWriteDraft } from '../api/review-newsletter';

/** The owner's page for one draft (the link the review texts carry). */
export const reviewPath = (loopId: number, newsletterId: number) => `/loops/${loopId}/newsletters/${newsletterId}`;

/**
 * The Newsletter tab (owner and staff; decision 0040): the coming issue's draft, its send time and
 * state, and what can be done with it: generate or regenerate, edit, preview, approve, send now,
 * move, skip.
 */
export function NewsletterReview({ loopId }: { loopId: number }) {
  const query = useLoopNewsletters(loopId);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Coming Newsletter</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {query.isPending ? (
          <CardSpinner />
        ) : query.isError ? (
          <div className="grid gap-3 rounded-lg bg-muted p-4 text-muted-foreground">
            <p>{errorText(query.error) || 'The newsletter could not be loaded.'}</p>
            <Button variant="outline" className="justify-self-start" onClick={() => void query.refetch()}>
              Try Again
            </Button>
          </div>
        ) : query.data.upcoming ? (
          <UpcomingDraft loopId={loopId} info={query.data} draft={query.data.upcoming} />
        ) : (
          <NoDraft loopId={loopId} info={query.data} />
        )}
      </CardContent>
    </Card>
  );
}

function NoDraft({ loopId, info }: { loopId: number; info: LoopNewsletters }) {
  return (
    <>
      <p className="flex items-start gap-2 rounded-lg bg-muted p-4 text-muted-foreground">
        <Newspaper aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
        <span>
          No draft yet.
          {info.nextNewsletterAt && !info.paused
            ? ` The next newsletter goes out ${formatInZone(info.nextNewsletterAt, info.timeZone)}; its draft is written 24 hours before, and you get a text with its link.`
            : ''}
        </span>
      </p>
      <GenerateButton loopId={loopId} label="Generate Draft" />
    </>
  );
}

function GenerateButton({ loopId, label, confirm }: { loopId: number; label: string; confirm?: boolean }) {
  const generate = useWriteDraft(loopId);
  async function run() {
    try {
      await generate.mutateAsync();
      toast({ title: 'Draft written', description: 'It has every update since the last newsletter.' });
    } catch (error) {
      toastError(errorText(error), 'Could not write the draft');
      throw error;
    }
  }
  const button = (
    <Button
      variant="outline"
      busy={generate.isPending}
      icon={<RefreshCw aria-hidden="true" />}
      onClick={confirm ? undefined : () => void run().catch(() => undefined)}
    >
      {label}
    </Button>
  );
  if (!confirm) return button;
  return (
    <ConfirmDialog
      trigger={button}
      title="Write the draft again?"
      description="It is written again from every update so far. Your edits to it are replaced, and it needs approving again."
      confirmLabel="Regenerate"
      onConfirm={run}
    />
  );
}

/** Where the draft stands, in words. */
export function draftState(draft: Newsletter, info: Pick<LoopNewsletters, 'newsletterReview' | 'timeZone' | 'paused'>): string {
  if (info.paused) return PAUSED_NEXT;
  if (!draft.sendAt) return 'Draft: not scheduled. Send it now, or move it to a time.';
  const when = formatInZone(draft.sendAt, info.timeZone);
  const due = new Date(draft.sendAt).getTime() <= Date.now();
  if (draft.approvedAt) return `Approved: goes out ${when}.`;
  if (info.newsletterReview) {
    return due
      ? `Waiting for your approval: it was due ${when} and goes out once you approve it.`
      : `Waiting for your approval: goes out ${when} once you approve it.`;
  }
  return `Goes out automatically ${when}.`;
}

function UpcomingDraft({ loopId, info, draft }: { loopId: number; info: LoopNewsletters; draft: Newsletter }) {
  return (
    <div className="grid gap-4">
      <div className="grid gap-1">
        <p className="font-semibold break-words">{draft.title || 'Newsletter draft'}</p>
        <p className="flex items-start gap-2 text-sm text-muted-foreground" aria-live="polite">
          <CalendarClock aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {draftState(draft, info)}
        </p>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <Button asChild>
          <Link to={reviewPath(loopId, draft.id)}>
            <Pencil aria-hidden="true" />
            Edit
          </Link>
        </Button>
        <Button asChild variant="outline">
          <a href={newsletterPath(draft.urlId)} target="_blank" rel="noopener noreferrer">
            <Eye aria-hidden="true" />
            Preview
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </Button>
        <Button asChild variant="outline">
          <a href={newsletterPdfPath(draft.urlId)} target="_blank" rel="noopener noreferrer">
            <FileText aria-hidden="true" />
            Preview PDF
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </Button>
        <GenerateButton loopId={loopId} label="Regenerate" confirm />
      </div>
      <ReviewActions info={info} draft={draft} />
    </div>
  );
}

/** Who a newsletter sent now reaches, by text and by e-mail, in words (names: the first 8). */
export function audienceWords(audience: NewsletterAudience | null): string {
  if (!audience) return 'Every member of the loop who said yes gets it now.';
  const names = (list: string[]) => (list.length > 8 ? `${list.slice(0, 8).join(', ')} and ${list.length - 8} more` : list.join(', '));
  const who = (list: string[], what: string) => (list.length === 1 ? `1 member${what} gets` : `${list.length} members${what} get`);
  const parts = [
    audience.byText.length > 0 ? `${who(audience.byText, '')} a text with its link (${names(audience.byText)})` : '',
    audience.byEmail.length > 0 ? `${who(audience.byEmail, ' who chose email')} it by email (${names(audience.byEmail)})` : '',
  ].filter(Boolean);
  if (parts.length === 0) return 'Nobody can get it now: no member has said yes, or all of them stopped texts.';
  return `${parts.join('; ')}, now.`;
}

/** Approve (or Withdraw Approval), Send now, Move, Skip: on the Loop's Newsletter tab and above the editor. */
export function ReviewActions({
  info,
  draft,
}: {
  info: Pick<LoopNewsletters, 'newsletterReview' | 'timeZone' | 'audience'>;
  draft: Newsletter;
}) {
  const review = useReviewNewsletter(draft.loopId, draft.id);
  if (draft.status !== 'draft' || draft.skippedAt) return null;

  async function act(run: () => Promise<unknown>, done: string, failed: string) {
    try {
      await run();
      toast({ title: done });
    } catch (error) {
      toastError(errorText(error), failed);
      throw error;
    }
  }
  const approve = () =>
    act(
      () => review.mutateAsync({ action: 'approve' }),
      draft.sendAt && new Date(draft.sendAt).getTime() <= Date.now() ? 'Approved and sent' : 'Approved: it goes out at its time',
      'Could not approve the newsletter',
    );

  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
      {draft.sendAt && !draft.approvedAt && (
        <Button
          variant="secondary"
          busy={review.isPending}
          icon={<Check aria-hidden="true" />}
          onClick={() => void approve().catch(() => undefined)}
        >
          Approve
        </Button>
      )}
      {draft.sendAt && draft.approvedAt && (
        <Button
          variant="outline"
          busy={review.isPending}
          icon={<Undo2 aria-hidden="true" />}
          onClick={() =>
            void act(
              () => review.mutateAsync({ action: 'unapprove' }),
              info.newsletterReview ? 'Approval withdrawn: it waits for you again' : 'Approval withdrawn',
              'Could not withdraw the approval',
            ).catch(() => undefined)
          }
        >
          Withdraw Approval
        </Button>
      )}
      <ConfirmDialog
        trigger={
          <Button variant="secondary" disabled={review.isPending}>
            <Send aria-hidden="true" />
            Send Now
          </Button>
        }
        title="Send this newsletter now?"
        description={`${audienceWords(info.audience)} This cannot be undone.`}
        confirmLabel="Send Now"
        onConfirm={() => act(() => review.mutateAsync({ action: 'send' }), 'Newsletter sent', 'Failed to send newsletter')}
      />
      <MoveDialog
        draft={draft}
        timeZone={info.timeZone}
        onMove={(sendAt) => act(() => review.mutateAsync({ action: 'move', sendAt }), 'Send time changed', 'Could not move the newsletter')}
      />
      <ConfirmDialog
        trigger={
          <Button variant="outline" disabled={review.isPending}>
            <SkipForward aria-hidden="true" />
            Skip This Issue
          </Button>
        }
        title="Skip this issue?"
        description="Nobody gets this newsletter. Its updates go into the next one."
        confirmLabel="Skip This Issue"
        onConfirm={() => act(() => review.mutateAsync({ action: 'skip' }), 'Issue skipped', 'Could not skip the newsletter')}
      />
    </div>
  );
}

/** "2026-12-06T18:00" for a datetime-local field, in the browser's zone. */
function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function MoveDialog({ draft, timeZone, onMove }: { draft: Newsletter; timeZone: string; onMove: (sendAt: string) => Promise<unknown> }) {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  function openChange(next: boolean) {
    setOpen(next);
    if (next) {
      setValue(localInputValue(draft.sendAt ? new Date(draft.sendAt) : new Date(Date.now() + 3_600_000)));
      setError('');
    }
  }
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const at = new Date(value);
    if (!value || Number.isNaN(at.getTime())) return setError('Pick a date and a time.');
    if (at.getTime() <= Date.now()) return setError('Pick a time in the future. To send it right away, use "Send Now".');
    setBusy(true);
    try {
      await onMove(at.toISOString());
      setOpen(false);
    } catch {
      // The toast said why.
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog open={open} onOpenChange={openChange}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <CalendarClock aria-hidden="true" />
          Move
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Move this newsletter</DialogTitle>
          <DialogDescription>
            {draft.sendAt ? `It goes out ${formatInZone(draft.sendAt, timeZone)} now. ` : ''}Pick a new day and time (your clock).
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-5" onSubmit={(event) => void submit(event)} noValidate>
          <div className="grid gap-2">
            <Label htmlFor="move-send-at">New send time</Label>
            <Input
              id="move-send-at"
              type="datetime-local"
              value={value}
              onChange={(event) => setValue(event.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'move-send-at-error' : undefined}
            />
            {error && (
              <p id="move-send-at-error" className="text-sm font-medium text-destructive">
                {error}
              </p>
            )}
          </div>
          <DialogSubmitFooter busy={busy}>Move</DialogSubmitFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
