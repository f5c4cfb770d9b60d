import { MessageSquareText, Newspaper, UsersRound } from 'lucide-react';
import { Screenshot, type ScreenshotName } from '@/components/screenshot';

const STEPS: { title: string; text: string; Icon: typeof UsersRound; shot: ScreenshotName; alt: string }[] = [
  {
    title: 'Simple Sign Up',
    text: 'Create a loop and add members: family, friends or a team, with just their phone numbers.',
    Icon: UsersRound,
    shot: 'create-loop',
    alt: 'The Create Loop form: a name, the newsletter vibe and what brings the group together.',
  },
  {
    title: 'SMS Updates',
    text: 'Share updates by text anytime, anywhere. Photos too. Everyone uses the messaging app they already have.',
    Icon: MessageSquareText,
    shot: 'updates',
    alt: "A Loop's updates: texts and photos from its members, newest first.",
  },
  {
    title: 'Automated Newsletter',
    text: 'Stay up to date with fun and engaging group newsletters, written and sent for you on your schedule.',
    Icon: Newspaper,
    shot: 'newsletter-photos',
    alt: "A newsletter section with one member's news and photo.",
  },
];

export function HowItWorks() {
  return (
    <section aria-labelledby="how-title" className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6 lg:py-24">
      <div className="mx-auto max-w-2xl text-center">
        <h2 id="how-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
          How it works
        </h2>
        <p className="mt-3 text-lg text-muted-foreground">Three steps. No app to install, nothing to learn.</p>
      </div>
      <ol className="mt-12 grid gap-6 md:grid-cols-3">
        {STEPS.map(({ title, text, Icon, shot, alt }, index) => (
          <li key={title} className="flex flex-col overflow-hidden rounded-2xl border bg-card shadow-sm">
            <div className="h-72 overflow-hidden bg-gradient-to-b from-secondary to-accent px-8 pt-8 sm:h-80">
              <Screenshot name={shot} alt={alt} className="mx-auto max-w-60 rounded-b-none border-b-0 shadow-lg" />
            </div>
            <div className="flex flex-1 flex-col gap-2 border-t p-6">
              <div className="flex items-center gap-3">
                <span className="flex size-10 items-center justify-center rounded-xl bg-secondary text-secondary-foreground">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <h3 className="text-lg font-semibold">
                  <span className="sr-only">Step {index + 1}: </span>
                  {title}
                </h3>
              </div>
              <p className="text-muted-foreground">{text}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
