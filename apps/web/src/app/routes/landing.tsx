import { ArrowRight, Camera, MessageSquareText, Newspaper } from 'lucide-react';
import { Link } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';

const POINTS = [
  { Icon: MessageSquareText, text: 'Everyone texts updates, any time' },
  { Icon: Camera, text: 'Photos welcome' },
  { Icon: Newspaper, text: 'A newsletter, made for you' },
];

/** Placeholder landing page (signed-out "/"); the full marketing page comes later. */
export function LandingRoute() {
  return (
    <section className="mx-auto flex w-full max-w-3xl flex-1 flex-col items-center justify-center gap-6 px-4 py-16 text-center sm:py-24">
      <PageTitle>Group updates by text, as a newsletter</PageTitle>
      <p className="rounded-full bg-secondary px-3 py-1 text-sm font-medium text-secondary-foreground">
        Free for families, friends and teams
      </p>
      <h1 className="text-4xl font-extrabold tracking-tight text-balance sm:text-6xl">
        Collect updates and news from your whole group
      </h1>
      <p className="max-w-xl text-lg text-pretty text-muted-foreground">
        Everyone shares what they are up to by text message. Loop gathers it all and sends a fun, automated
        newsletter, powered by SMS. No app to install.
      </p>
      <Button asChild size="lg" className="w-full sm:w-auto">
        <Link to="/auth" state={{ mode: 'signup' }}>
          Get Started for Free!
          <ArrowRight aria-hidden="true" />
        </Link>
      </Button>
      <ul className="mt-6 grid w-full gap-3 text-left sm:grid-cols-3">
        {POINTS.map(({ Icon, text }) => (
          <li key={text} className="flex items-center gap-3 rounded-xl border bg-card p-4 text-sm font-medium">
            <Icon aria-hidden="true" className="size-5 shrink-0 text-primary" />
            {text}
          </li>
        ))}
      </ul>
    </section>
  );
}
