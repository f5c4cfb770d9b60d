import { Check, ExternalLink, Eye, LoaderCircle, PencilLine, Save, Send, TriangleAlert } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { LIMITS } from '@loop/shared/constants';
import { newsletterPath } from '@loop/shared/newsletter-paths';
import type { Newsletter } from '@loop/shared/newsletters';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDate, formatDateTime } from '@/lib/format-date';
import { useRenderedNewsletter } from '@/lib/rendered-newsletter';
import { useSaveNewsletter } from '../api/save-newsletter';
import { useSendNewsletter } from '../api/send-newsletter';
import { kindLabel, StatusBadge } from '@/components/newsletter-status-badge';
import { UnsavedChangesDialog, useUnsavedChangesBlocker } from './unsaved-changes-dialog';

// ProseMirror and its Markdown bridge load only when an editor opens (bench/bundle-size).
const RichNewsletterEditor = lazy(() => import('./rich-editor/rich-newsletter-editor'));

/** How long typing pauses before the draft is saved, and before the preview is drawn again. */
const AUTOSAVE_MS = 1200;
const PREVIEW_MS = 400;

/**
 * The draft in the visual editor (decision 0041), saved on its own a moment after each change
 * ("Saving…", "Saved", or what went wrong and Try Again), with the newsletter as members will see
 * it beside it (from 1280 px; a Preview toggle on smaller screens), drawn by the public page's own
 * renderer. Send to Members saves first. A sent newsletter is read-only. The editor itself is
 * loaded lazily, so none of it weighs on other pages. After sending it goes to `sentPath` (staff's
 * Loop page unless told otherwise: the owner's review page sends them back to their own Loop).
 */
export function NewsletterEditor({ newsletter, sentPath }: { newsletter: Newsletter; sentPath?: string }) {
  const navigate = useNavigate();
  const [content, setContent] = useState(newsletter.content);
  const save = useSaveNewsletter(newsletter.loopId, newsletter.id);
  const send = useSendNewsletter(newsletter.loopId, newsletter.id);
  const sent = newsletter.status !== 'draft';
  const dirty = content !== newsletter.content;
  const previewUrl = newsletterPath(newsletter.urlId);
  const [showPreview, setShowPreview] = useState(false);
  const previewContent = useDebounced(content, PREVIEW_MS);
  const rendered = useRenderedNewsletter(newsletter.loopId, newsletter.id, previewContent);
  const tooLong = content.length > LIMITS.newsletter;
  const empty = content.trim() === '';

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

  // Autosave: a moment after the last change, the draft is saved (one save at a time, in order).
  const { mutate: autosave, reset: resetSave } = save;
  useEffect(() => {
    if (sent || !dirty || tooLong || empty) return;
    const timer = window.setTimeout(() => autosave(content), AUTOSAVE_MS);
    return () => window.clearTimeout(timer);
  }, [content, dirty, sent, tooLong, empty, autosave]);

  function saveNow() {
    resetSave();
    return save.mutateAsync(content).catch((error: unknown) => {
      toastError(errorText(error), 'Failed to save changes');
      throw error;
    });
  }

  async function sendToMembers() {
    // Members get what is on screen: unsaved edits are saved first.
    if (dirty) await saveNow();
    try {
      await send.mutateAsync();
    } catch (error) {
      toastError(errorText(error), 'Failed to send newsletter');
      throw error;
    }
    toast({ title: 'Newsletter sent', description: 'The newsletter has been sent to all loop members.' });
    sentRef.current = true;
    void navigate(sentPath ?? `/admin/loops/${newsletter.loopId}`);
  }

  const preview = (
    <NewsletterPreviewFrame
      html={rendered.data?.html}
      error={rendered.isError ? errorText(rendered.error) : null}
      updating={rendered.isFetching || previewContent !== content}
    />
  );

  return (
    <Card>
      <UnsavedChangesDialog blocker={blocker} />
      <CardContent className="grid gap-4 pt-5 sm:pt-6">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
          <span className="font-semibold text-foreground">{newsletter.title}</span>
          <StatusBadge status={newsletter.status} approved={newsletter.approvedAt !== null && !newsletter.skippedAt} />
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
        {!sent && (
          <div className="flex flex-wrap items-center justify-between gap-2">
            <SaveState
              dirty={dirty}
              saving={save.isPending}
              error={save.isError ? errorText(save.error) : null}
              problem={
                empty
                  ? 'The newsletter cannot be empty.'
                  : tooLong
                    ? `The newsletter is too long: at most ${LIMITS.newsletter.toLocaleString('en-US')} characters.`
                    : null
              }
              onRetry={() => void saveNow().catch(() => undefined)}
            />
            <Button
              variant="outline"
              size="sm"
              className="xl:hidden"
              aria-pressed={showPreview}
              onClick={() => setShowPreview((on) => !on)}
            >
              {showPreview ? <PencilLine aria-hidden="true" /> : <Eye aria-hidden="true" />}
              {showPreview ? 'Back to Editing' : 'Show Preview'}
            </Button>
          </div>
        )}
        <div className="grid min-w-0 gap-4 xl:grid-cols-2">
          <div className={cn('min-w-0', showPreview && 'hidden xl:block')}>
            <Suspense fallback={<PageSpinner />}>
              <RichNewsletterEditor
                initialMarkdown={newsletter.content}
                onChange={setContent}
                media={rendered.data?.media}
                readOnly={sent}
                label="Newsletter content"
              />
            </Suspense>
          </div>
          <div className={cn('min-w-0 xl:sticky xl:top-20 xl:self-start', !showPreview && 'hidden xl:block')}>{preview}</div>
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
            <Button
              disabled={send.isPending || !dirty || tooLong || empty}
              busy={save.isPending}
              icon={<Save aria-hidden="true" />}
              onClick={() => void saveNow().catch(() => undefined)}
            >
              Save Changes
            </Button>
            <Button asChild variant="outline">
              <a href={previewUrl} target="_blank" rel="noopener noreferrer">
                <ExternalLink aria-hidden="true" />
                Open Saved Page
              </a>
            </Button>
            <ConfirmDialog
              trigger={
                <Button variant="secondary" disabled={save.isPending || send.isPending || tooLong || empty} className="sm:ml-auto">
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
      </CardContent>
    </Card>
  );
}

/** "Saving…", "Saved", "Unsaved changes", or what went wrong with Try Again; read out when it changes. */
function SaveState(props: { dirty: boolean; saving: boolean; error: string | null; problem: string | null; onRetry: () => void }) {
  const { dirty, saving, error, problem, onRetry } = props;
  if (problem) {
    return (
      <p role="alert" className="text-sm text-destructive">
        Not saved: {problem}
      </p>
    );
  }
  if (error && !saving) {
    return (
      <div role="alert" className="flex flex-wrap items-center gap-2 text-sm text-destructive">
        <span>Not saved: {error}</span>
        <Button size="sm" variant="outline" onClick={onRetry}>
          Try Again
        </Button>
      </div>
    );
  }
  return (
    <p role="status" className="flex items-center gap-1.5 text-sm text-muted-foreground">
      {saving ? (
        <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
      ) : dirty ? null : (
        <Check aria-hidden="true" className="size-4 text-green-700" />
      )}
      {saving ? 'Saving…' : dirty ? 'Unsaved changes' : 'Saved'}
    </p>
  );
}

/**
 * The newsletter as members will see it: the public page's HTML for what is on screen, in a frame
 * that runs no script (the page is drawn without its lightbox script). 375 px wide on a phone, the page's own column beside the editor from 1280 px.
 */
function NewsletterPreviewFrame({ html, error, updating }: { html: string | undefined; error: string | null; updating: boolean }) {
  return (
    <section aria-label="Live preview" className="grid gap-2">
      <div className="flex items-center justify-between gap-2 text-sm">
        <h2 className="font-semibold">Live preview</h2>
        <span className="text-muted-foreground" aria-hidden="true">
          {updating ? 'Updating…' : 'As members will see it'}
        </span>
      </div>
      {error ? (
        <p role="alert" className="rounded-lg bg-muted p-3 text-sm">
          The preview could not be drawn: {error}
        </p>
      ) : html === undefined ? (
        <PageSpinner />
      ) : (
        <iframe
          title="Live preview of the newsletter"
          srcDoc={html}
          // Same origin, so the page's stylesheet and media load; no scripts at all.
          sandbox="allow-same-origin"
          className="h-[70vh] min-h-[480px] w-full rounded-lg border bg-white"
        />
      )}
    </section>
  );
}

/** The value, once it has stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The updates it covers: "3/1/2026 to 3/14/2026", one date for a single day, "Until ..." from the Loop's start. */
function periodLabel({ periodStart, periodEnd }: Pick<Newsletter, 'periodStart' | 'periodEnd'>): string {
  const end = formatDate(periodEnd);
  if (!periodStart) return `Until ${end}`;
  const start = formatDate(periodStart);
  return start === end ? start : `${start} to ${end}`;
}
