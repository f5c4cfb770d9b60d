import { MessageSquareText } from 'lucide-react';
import type { TextCost as TextCostFacts } from '@loop/shared/group-messages';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * What a text to a whole Loop will be and cost, before it is sent (decision 0042): the exact text
 * as a phone shows it, who gets it, and members x segments.
 */
export function TextCost({ cost, note }: { cost: TextCostFacts; note?: string }) {
  const names = cost.recipientNames.slice(0, 12);
  const more = cost.recipients - names.length;
  return (
    <div className="grid min-w-0 gap-3 text-sm">
      <figure className="grid gap-1">
        <figcaption className="flex items-center gap-1.5 font-medium">
          <MessageSquareText aria-hidden="true" className="size-4" />
          The text
        </figcaption>
        <p className="rounded-2xl rounded-bl-sm bg-muted p-3 whitespace-pre-wrap [overflow-wrap:anywhere]" data-testid="text-preview">
          {cost.text}
        </p>
        {note && <p className="text-xs text-muted-foreground">{note}</p>}
      </figure>
      <p data-testid="text-cost" className="rounded-lg border p-3">
        <strong>{plural(cost.recipients, 'person', 'people')}</strong> will get it: {plural(cost.segments, 'text segment')} each,{' '}
        <strong>{plural(cost.texts, 'text')}</strong> in all.
      </p>
      {cost.ucs2Characters.length > 0 && cost.segments > 1 && (
        <p
          data-testid="text-cost-unicode"
          className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-950 [overflow-wrap:anywhere]"
        >
          {cost.ucs2Characters.map((char) => `“${char}”`).join(', ')} {cost.ucs2Characters.length === 1 ? 'is' : 'are'} outside the basic
          text alphabet, so each text counts as {plural(cost.segments, 'segment')} (Unicode: 70 characters a segment instead of 160). Leave{' '}
          {cost.ucs2Characters.length === 1 ? 'it' : 'them'} out to send fewer.
        </p>
      )}
      {cost.recipients > 0 && (
        <p className="text-muted-foreground [overflow-wrap:anywhere]">
          To: {names.join(', ')}
          {more > 0 ? ` and ${plural(more, 'other')}` : ''}.
        </p>
      )}
      {cost.notReached > 0 && (
        <p className="text-muted-foreground">
          {plural(cost.notReached, 'member')} won't get it now: they have not said YES yet, opted out, or can't receive texts.
        </p>
      )}
    </div>
  );
}
