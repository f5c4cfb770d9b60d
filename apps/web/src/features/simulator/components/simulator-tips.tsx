import { Lightbulb } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';

const KEYWORDS = [
  // Says what the answer says (replies.help): the brand's how-to, the support contact, how to stop.
  ['HELP', 'how texting Loop works, where to get help, how to stop'],
  ['LOOPS', 'the Loops this phone is in'],
  ['STOP', 'no more texts from Loop (from your own phone)'],
  ['START', 'texts again after STOP (from your own phone)'],
  ['DELETE', 'a member without an account erases all they sent (a texted code confirms it)'],
] as const;

/** How a member texts Loop: what the simulator is good for trying. */
export function SimulatorTips({ className }: { className?: string }) {
  return (
    <Card className={cn('bg-accent/40', className)}>
      <CardHeader className="pb-3 sm:pb-3">
        <CardTitle className="flex items-center gap-2 text-base">
          <Lightbulb aria-hidden="true" className="size-4 text-primary" />
          Things to try
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 text-sm">
        <p className="text-muted-foreground">Any text or photo becomes an update in the member’s Loops, and Loop texts back to confirm.</p>
        <p className="text-muted-foreground">
          <span className="font-medium text-foreground">In several Loops?</span> Start with a Loop’s name and a colon (<q>Family: …</q>) or
          add <span className="font-medium text-foreground">#Family</span> anywhere. Without a name, the text goes to all of them.
        </p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5">
          {KEYWORDS.map(([word, meaning]) => (
            <div key={word} className="contents">
              <dt>
                <kbd className="rounded-md border bg-card px-1.5 py-0.5 font-mono text-xs font-semibold">{word}</kbd>
              </dt>
              <dd className="text-muted-foreground">{meaning}</dd>
            </div>
          ))}
        </dl>
        <p className="text-xs text-muted-foreground">
          Photos: JPEG, PNG, GIF or WebP, up to 5 MB each and 10 per text. Voice memos and videos: any common audio or video file, up to 5
          MB by SMS or 16 MB on WhatsApp, or record one with the microphone button.
        </p>
      </CardContent>
    </Card>
  );
}
