import { BellRing, CalendarClock, FilePen, PauseCircle } from 'lucide-react';
import type { LoopNewsletters } from '@loop/shared/newsletters';
import { Spinner } from '@/components/ui/spinner';
import { errorText } from '@/lib/api-client';
import { formatInZone } from '@/lib/format-date';
import { useLoopNewsletters } from '../api/get-loop-newsletters';

/** The scheduler writes a newsletter's draft, and texts the owner its link, this long before it goes (decision 0040). */
const DRAFT_AHEAD_MS = 24 * 60 * 60 * 1000;

export const PAUSED_NEXT = 'Paused: nothing is sent until you resume.';

/** What the Loop will do next, in its zone: the next reminder, the newsletter's draft and send, or nothing while paused. */
export function LoopNextSteps({ loopId }: { loopId: number }) {
  const query = useLoopNewsletters(loopId);
  if (query.isPending) return <Spinner />;
  if (query.isError)
    return <p className="text-sm text-muted-foreground">{errorText(query.error) || 'What comes next could not be loaded.'}</p>;
  const info = query.data;
  if (info.paused) {
    return (
      <p role="status" className="flex items-start gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
        <PauseCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        {PAUSED_NEXT}
      </p>
    );
  }
  return (
    <dl aria-live="polite" className="grid gap-3 rounded-lg bg-muted p-3 text-sm">
      {steps(info).map(({ term, icon: Icon, text }) => (
        <div key={term}>
          <dt className="flex items-start gap-2 text-muted-foreground">
            <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            {term}
          </dt>
          <dd className="pl-6 font-medium break-words">{text}</dd>
        </div>
      ))}
    </dl>
  );
}

function steps(info: LoopNewsletters) {
  const at = (value: string) => formatInZone(value, info.timeZone);
  const reminder = {
    term: 'Next reminder',
    icon: BellRing,
    text: info.nextReminderAt ? at(info.nextReminderAt) : 'No reminders scheduled',
  };
  const draft = info.upcoming;
  if (draft?.sendAt) {
    return [reminder, { term: 'Next newsletter', icon: CalendarClock, text: `Draft ready: goes out ${at(draft.sendAt)}` }];
  }
  if (!info.nextNewsletterAt) return [reminder, { term: 'Next newsletter', icon: CalendarClock, text: 'Not scheduled' }];
  const draftAt = new Date(new Date(info.nextNewsletterAt).getTime() - DRAFT_AHEAD_MS);
  return [
    reminder,
    {
      term: 'Next draft',
      icon: FilePen,
      text: draftAt.getTime() > Date.now() ? `${at(draftAt.toISOString())}: you get a text with its link` : 'Being written now',
    },
    { term: 'Next newsletter', icon: CalendarClock, text: `Goes out ${at(info.nextNewsletterAt)}` },
  ];
}
