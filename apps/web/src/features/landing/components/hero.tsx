import { CirclePlay, Newspaper } from 'lucide-react';
import { Screenshot } from '@/components/screenshot';
import { buttonVariants } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { useLandingLinks } from '../api/get-landing-links';
import { GetStartedButton } from './get-started-button';
import { NewTabLink } from './new-tab-link';

export function Hero() {
  const links = useLandingLinks();
  const secondary = cn(buttonVariants({ variant: 'outline', size: 'lg' }), 'w-full sm:w-auto');
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(60rem_30rem_at_80%_-10%,var(--color-secondary),transparent_70%),radial-gradient(40rem_24rem_at_-10%_110%,var(--color-accent),transparent_70%)]"
      />
      <div className="mx-auto grid w-full max-w-6xl items-center gap-12 px-4 pt-12 pb-16 sm:px-6 sm:pt-16 lg:grid-cols-[minmax(0,1fr)_17rem] lg:gap-12 lg:pt-20 lg:pb-24">
        <div className="flex flex-col items-center gap-6 text-center lg:items-start lg:text-left">
          <p className="rounded-full bg-secondary px-3 py-1 text-sm font-semibold text-secondary-foreground">
            Free for families, friends and teams
          </p>
          <h1 id="hero-title" className="text-4xl font-extrabold tracking-tight text-balance sm:text-5xl lg:text-6xl">
            Collect updates and news from your whole group
          </h1>
          <p className="max-w-xl text-lg text-pretty text-muted-foreground">
            Everyone shares what they are up to by text message, whenever they like. Loop gathers it all into a fun, automated newsletter,
            powered by SMS. No app to install.
          </p>
          <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row sm:flex-wrap sm:justify-center lg:justify-start">
            <GetStartedButton className="w-full sm:w-auto" />
            <NewTabLink href={links.exampleNewsletter} className={secondary}>
              <Newspaper aria-hidden="true" />
              See Example Newsletter
            </NewTabLink>
            <NewTabLink href={links.demoVideo} className={secondary}>
              <CirclePlay aria-hidden="true" />
              Watch Demo
            </NewTabLink>
          </div>
        </div>
        <div className="relative mx-auto w-full max-w-[17rem]">
          <div aria-hidden="true" className="absolute -inset-6 -z-10 rotate-6 rounded-[2.5rem] bg-primary/10" />
          <Screenshot name="newsletter" eager alt="A Loop newsletter on a phone: the family's news of the last two weeks, with photos." />
        </div>
      </div>
    </section>
  );
}
