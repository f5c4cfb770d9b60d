import { ExternalLink, Eye, Save, Send, TriangleAlert } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { LIMITS } from '@loop/shared/constants';
import { newsletterPath, type Newsletter } from '@loop/shared/newsletters';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { formatDate, formatDateTime } from '@/lib/format-date';
import { useSaveNewsletter } from '../api/save-newsletter';
import { useSendNewsletter } from '../api/send-newsletter';
import { kindLabel, StatusBadge } from './status-badge';
import { UnsavedChangesDialog, useUnsavedChangesBlocker } from './unsaved-changes-dialog';

/**
 * The draft's Markdown in a tall text area: Save Changes, Preview (the public page in a new tab,
 * which shows what was last saved) and Send to Members. A sent newsletter is read-only.
 */
export function NewsletterEditor({ newsletter }: { newsletter: Newsletter }) {
  const navigate = useNavigate();
  const fieldId = useId();
  const [content, setContent] = useState(newsletter.content);
  const save = useSaveNewsletter(newsletter.loopId, newsletter.id);
  const send = useSendNewsletter(newsletter.loopId, newsletter.id);
  const sent = newsletter.status !== 'draft';
  const dirty = content !== newsletter.content;
  const previewUrl = newsletterPath(newsletter.urlId);

  // Closing or reloading the tab with unsaved edits asks first (returnValue: browsers before the standard).
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  // Leaving inside the app (Back to Loop, the top bar) with unsaved edits asks too; sending has saved them.
  const dirtyRef = useRef(dirty);
  const sentRef = useRef(false);
  useEffect(() => {
    dirtyRef.current = dirty;
  }, [dirty]);
  const blocker = useUnsavedChangesBlocker(() => dirtyRef.current && !sentRef.current);

  function saveChanges(event?: FormEvent<HTMLFormElement>) {
    event?.preventDefault();
    return save.mutateAsync(content).then(
      () => toast({ title: 'Changes saved', description: 'Newsletter draft has been updated.' }),
      (error: unknown) => {
        toastError(errorText(error), 'Failed to save changes');
        throw error;
      },
    );
  }

  async function sendToMembers() {
    // Members get what is on screen: unsaved edits are saved first.
    if (dirty) await saveChanges();
    try {
      await send.mutateAsync();
    } catch (error) {
      toastError(errorText(error), 'Failed to send newsletter');
      throw error;
    }
    toast({ title: 'Newsletter sent', description: 'The newsletter has been sent to all loop members.' });
    sentRef.current = true;
    void navigate(`/admin/loops/${newsletter.loopId}`);
  }

  return (
    <Card>
      <UnsavedChangesDialog blocker={blocker} />
      <CardContent className="grid gap-4 pt-5 sm:pt-6">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
          <span className="font-semibold text-foreground">{newsletter.title}</span>
          <StatusBadge status={newsletter.status} />
          <span>
            {kindLabel(newsletter.kind)} · {periodLabel(newsletter)}
          </span>
        </div>
        {newsletter.fellBack && (
          <p className="flex items-start gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
            <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            The AI writer could not write this one, so it was written from the template instead.
          </p>
        )}
        {sent && (
          <p className="rounded-lg bg-muted p-3 text-sm">
            This {kindLabel(newsletter.kind).toLowerCase()} was sent
            {newsletter.sentAt ? ` on ${formatDateTime(newsletter.sentAt)}` : ''} and can no longer be edited.
          </p>
        )}
        <form className="grid gap-4" onSubmit={(event) => void saveChanges(event).catch(() => undefined)}>
          <div className="grid gap-2">
            <Label htmlFor={fieldId}>Newsletter content (Markdown)</Label>
            <Textarea
              id={fieldId}
              value={content}
              onChange={(event) => setContent(event.target.value)}
              readOnly={sent}
              maxLength={LIMITS.newsletter}
              spellCheck
              className="min-h-[500px] resize-y font-mono text-sm leading-relaxed sm:text-sm"
            />
            {!sent && (
              <p className="text-xs text-muted-foreground" aria-live="polite">
                {dirty ? 'Unsaved changes: Preview shows the last saved version.' : 'All changes saved.'}
              </p>
            )}
          </div>
          {sent ? (
            <div className="flex flex-wrap gap-2">
              <Button asChild>
                <a href={previewUrl} target="_blank" rel="noopener noreferrer">
                  View Newsletter
                  <ExternalLink aria-hidden="true" />
                </a>
              </Button>
            </div>
          ) : (
            <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
              <Button type="submit" disabled={send.isPending} busy={save.isPending} icon={<Save aria-hidden="true" />}>
                Save Changes
              </Button>
              <Button asChild variant="outline">
                <a href={previewUrl} target="_blank" rel="noopener noreferrer">
                  <Eye aria-hidden="true" />
                  Preview
                </a>
              </Button>
              <ConfirmDialog
                trigger={
                  <Button variant="secondary" disabled={save.isPending || send.isPending} className="sm:ml-auto">
                    <Send aria-hidden="true" />
                    Send to Members
                  </Button>
                }
                title="Send this newsletter?"
                description={
                  dirty
                    ? 'Your changes are saved first. Every member of the loop then gets a text with the link. This cannot be undone.'
                    : 'Every member of the loop gets a text with the link. This cannot be undone.'
                }
                confirmLabel="Send to Members"
                onConfirm={sendToMembers}
              />
            </div>
          )}
        </form>
      </CardContent>
    </Card>
  );
}

/** The updates it covers: "3/1/2026 to 3/14/2026", one date for a single day, "Until ..." from the Loop's start. */
function periodLabel({ periodStart, periodEnd }: Pick<Newsletter, 'periodStart' | 'periodEnd'>): string {
  const end = formatDate(periodEnd);
  if (!periodStart) return `Until ${end}`;
  const start = formatDate(periodStart);
  return start === end ? start : `${start} to ${end}`;
}
