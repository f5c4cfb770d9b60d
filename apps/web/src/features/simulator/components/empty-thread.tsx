import { MessagesSquare } from 'lucide-react';
import type { SimulatorPhone } from '@loop/shared/simulator';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';

const SUGGESTIONS = ['Hello!', 'HELP', 'LOOPS'];
/** A phone invited to a Loop and not yet in: YES first, as its invitation asks. */
const PENDING_SUGGESTIONS = ['YES', 'Hello!', 'HELP'];

/** Whether the phone is invited to a Loop it has not said YES to. */
export function isPending(phone: SimulatorPhone): boolean {
  return phone.loops.some((loop) => loop.pending === true);
}

/** A phone that has not texted yet: what to try, and how a text finds its Loop. */
export function EmptyThread({ phone, onSuggest }: { phone: SimulatorPhone; onSuggest: (text: string) => void }) {
  const [first, second] = phone.loops;
  return (
    <div className="flex h-full flex-col items-center justify-center gap-3 overflow-y-auto px-6 py-8 text-center">
      <div className="flex size-14 items-center justify-center rounded-full bg-secondary">
        <MessagesSquare aria-hidden="true" className="size-7 text-secondary-foreground" />
      </div>
      <h3 className="font-semibold">No texts yet</h3>
      <p className="text-sm text-muted-foreground">Text Loop as {phone.firstName} would. Try one of these:</p>
      <SuggestionButtons onSuggest={onSuggest} pending={isPending(phone)} className="justify-center" />
      <p className="text-sm text-muted-foreground">
        {first && second ? (
          <>
            {phone.firstName} is in {phone.loops.length} Loops: a text goes to all of them, unless it starts with a Loop’s name and a colon
            (<q className="font-medium text-foreground">{first.name}: …</q>) or names one with{' '}
            <span className="font-medium text-foreground">#{hashtag(second.name)}</span>.
          </>
        ) : (
          <>
            Texts and photos from {phone.firstName} become updates in{' '}
            <span className="font-medium text-foreground">{first?.name ?? 'their Loop'}</span>, and Loop texts back to confirm.
          </>
        )}
      </p>
    </div>
  );
}

/** Texts worth trying first; a press puts one in the compose box. */
export function SuggestionButtons({
  onSuggest,
  pending = false,
  className,
}: {
  onSuggest: (text: string) => void;
  pending?: boolean;
  className?: string;
}) {
  return (
    <div className={cn('flex flex-wrap gap-2', className)}>
      {(pending ? PENDING_SUGGESTIONS : SUGGESTIONS).map((text) => (
        <Button key={text} variant="outline" size="sm" className="h-8 rounded-full" onClick={() => onSuggest(text)}>
          {text}
        </Button>
      ))}
    </div>
  );
}

/** "The Parkers" → "TheParkers": the server matches names without spaces, case or accents. */
export function hashtag(name: string): string {
  return name.replace(/[^\p{L}\p{N}]/gu, '');
}
