import { BookOpen } from 'lucide-react';
import { Screenshot } from '@/components/screenshot';
import { buttonVariants } from '@/components/ui/button';
import { useLandingLinks } from '../api/get-landing-links';
import { NewTabLink } from './new-tab-link';

export function GuideTeaser() {
  const { guide } = useLandingLinks();
  return (
    <section aria-labelledby="guide-title" className="mx-auto w-full max-w-6xl px-4 sm:px-6">
      <div className="grid items-center gap-8 overflow-hidden rounded-3xl border bg-card p-6 shadow-sm sm:p-10 md:grid-cols-[1fr_auto] md:gap-12">
        <div className="flex flex-col items-start gap-4">
          <span className="flex size-12 items-center justify-center rounded-2xl bg-secondary text-secondary-foreground">
            <BookOpen aria-hidden="true" className="size-6" />
          </span>
          <h2 id="guide-title" className="text-3xl font-bold tracking-tight">
            Getting Started Guide
          </h2>
          <p className="max-w-xl text-lg text-muted-foreground">
            A short walkthrough with the real screens: create your Loop, invite your people, send your first text and read your first
            newsletter. Ready in about five minutes.
          </p>
          <NewTabLink href={guide} className={buttonVariants({ size: 'lg' })}>
            Read the Guide
          </NewTabLink>
        </div>
        <div className="mx-auto h-64 w-52 overflow-hidden sm:h-72 sm:w-60 md:-mb-10 md:self-end">
          <Screenshot
            name="members"
            alt="A Loop's members: names, phone numbers and what each is up to."
            className="rounded-b-none border-b-0"
          />
        </div>
      </div>
    </section>
  );
}
