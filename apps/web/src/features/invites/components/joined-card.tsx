import { BookOpen, MessageSquareText, Smartphone } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { NewsletterDelivery } from '@loop/shared/constants';
import type { JoinAnswer } from '@loop/shared/loops';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { formatPhoneNumber } from '@/lib/phone-format';

/** After joining by invite: what happens next, in the order it happens. */
export function JoinedCard({
  answer,
  phoneNumber,
  delivery = { newsletterDelivery: 'text', email: '' },
}: {
  answer: JoinAnswer;
  phoneNumber: string;
  delivery?: { newsletterDelivery: NewsletterDelivery; email: string };
}) {
  const byEmail = delivery.newsletterDelivery !== 'text' && delivery.email !== '';
  return (
    <Card className="w-full max-w-md" role="status">
      <CardHeader className="items-center text-center">
        <div className="mb-2 flex size-12 items-center justify-center rounded-full bg-secondary">
          <Smartphone aria-hidden="true" className="size-6 text-secondary-foreground" />
        </div>
        <h1 className="text-2xl font-bold tracking-tight">Check your phone</h1>
        <p className="text-muted-foreground">
          Almost there: you asked to join <strong className="break-words text-foreground">{answer.loopName}</strong>.
        </p>
      </CardHeader>
      <CardContent className="grid gap-5">
        <ol className="grid gap-4 text-sm">
          <Step number={1}>
            A text from Loop is on its way to <span className="font-semibold whitespace-nowrap">{formatPhoneNumber(phoneNumber)}</span>.
            <strong> Reply YES</strong> to it to join. Until then, nothing is sent to the loop.
          </Step>
          <Step number={2}>
            Then text your news to that number whenever you like: what you are up to, a photo of dinner, a small win. You can send as many
            texts and photos as you want.
          </Step>
          {byEmail ? (
            <Step number={3}>
              Loop sends a friendly reminder now and then, and turns everyone’s updates into a newsletter that comes by email to{' '}
              <span className="font-semibold break-all">{delivery.email}</span>
              {delivery.newsletterDelivery === 'both' ? ' (and by text)' : ''}. Check that inbox for one email from Loop and confirm the
              address first. Reply STOP at any time to stop all texts.
            </Step>
          ) : (
            <Step number={3}>
              Loop sends a friendly reminder now and then, and turns everyone’s updates into a newsletter with a link to read it. Reply STOP
              at any time to stop all texts.
            </Step>
          )}
        </ol>
        <p className="flex items-start gap-2 rounded-lg bg-muted p-3 text-sm text-muted-foreground">
          <MessageSquareText aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          No text after a few minutes? Check the number, or ask whoever invited you to add you again.
        </p>
        <Button asChild variant="outline">
          <Link to="/guide">
            <BookOpen aria-hidden="true" />
            How Loop works
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}

/** One step of what happens next: its number in a circle, then what happens. */
function Step({ number, children }: { number: number; children: ReactNode }) {
  return (
    <li className="flex gap-3">
      <span
        aria-hidden="true"
        className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary text-xs font-bold text-primary-foreground"
      >
        {number}
      </span>
      <p>{children}</p>
    </li>
  );
}
