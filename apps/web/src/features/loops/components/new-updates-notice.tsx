import { MessageSquarePlus } from 'lucide-react';
import { useNavigate } from 'react-router';
import type { LoopNewsletters, Newsletter } from '@loop/shared/newsletters';
import { Button } from '@/components/ui/button';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useWriteDraft } from '../api/review-newsletter';
import { reviewPath } from './newsletter-review';

/**
 * On the review page: updates that came in after this draft was written (decision 0020 leaves them
 * for the next issue) and a one-tap "Add it", which writes the draft again with them (a scheduled
 * draft in place; one made by hand as a new draft, which the page then shows).
 */
export function NewUpdatesNotice({ loopId, info, draft }: { loopId: number; info: LoopNewsletters; draft: Newsletter }) {
  const write = useWriteDraft(loopId);
  const navigate = useNavigate();
  const count = info.updatesSinceDraft;
  if (!count || info.upcoming?.id !== draft.id || draft.status !== 'draft' || draft.skippedAt) return null;
  async function add() {
    try {
      const answer = await write.mutateAsync();
      toast({ title: 'Draft written', description: 'It has every update since the last newsletter.' });
      if (answer.newsletter.id !== draft.id) void navigate(reviewPath(loopId, answer.newsletter.id));
    } catch (error) {
      toastError(errorText(error), 'Could not write the draft');
    }
  }
  return (
    <div role="status" className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-accent/60 p-3 text-sm">
      <p className="flex items-start gap-2">
        <MessageSquarePlus aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
        {count === 1 ? '1 new update since this draft' : `${count} new updates since this draft`}
      </p>
      <Button size="sm" variant="outline" busy={write.isPending} onClick={() => void add()}>
        {count === 1 ? 'Add it' : 'Add them'}
      </Button>
    </div>
  );
}
