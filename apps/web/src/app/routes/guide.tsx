import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { Screenshot, type ScreenshotName } from '@/components/screenshot';
import { GetStartedButton } from '@/features/landing/components/get-started-button';

interface Step {
  id: string;
  title: string;
  shot: ScreenshotName;
  alt: string;
  body: ReactNode;
}

const STEPS: Step[] = [
  {
    id: 'sign-up',
    title: 'Create your free account',
    shot: 'sign-up',
    alt: 'The Sign Up form: first and last name, email, password, phone number and messaging preference.',
    body: (
      <>
        Choose <strong>Get Started for Free!</strong> and fill in your name, email, a password and your phone number. Pick how you’d like to
        receive updates and reminders: SMS or WhatsApp.
      </>
    ),
  },
  {
    id: 'create',
    title: 'Create a Loop',
    shot: 'create-loop',
    alt: 'The Create Loop dialog with a Loop name, newsletter vibe checkboxes and group context.',
    body: (
      <>
        On <strong>My Loops</strong>, choose <strong>Create Loop</strong>. Give it a name, tick the newsletter vibe that fits your group
        (family, friends, funny, deep…) and say what brings you together: the newsletter uses it.
      </>
    ),
  },
  {
    id: 'invite',
    title: 'Invite your people',
    shot: 'invite',
    alt: 'The invite dialog showing a join link with a copy button.',
    body: (
      <>
        In your Loop, open <strong>Members</strong> and choose <strong>Add Member</strong> with a name and phone number, or choose{' '}
        <strong>Generate Invite Link</strong> and share the link in your group chat: anyone with the link can join. Everyone gets a welcome
        text that explains how it works.
      </>
    ),
  },
  {
    id: 'text',
    title: 'Text in your news',
    shot: 'updates',
    alt: "The Loop's Updates tab with texts and photos from members.",
    body: (
      <>
        Members simply reply to the welcome text, anytime, with news and photos. In several Loops? Start the text with the Loop’s name and a
        colon to share with that one only. Every text shows up under <strong>Updates</strong>. Trying Loop without a phone line? Log in and
        open the{' '}
        <Link to="/simulator" className="font-medium text-primary underline underline-offset-4">
          Phone Simulator
        </Link>{' '}
        to text in as any member.
      </>
    ),
  },
  {
    id: 'review',
    title: 'Look it over before it goes',
    shot: 'review',
    alt: 'The Loop’s Newsletter tab: the coming newsletter waiting for approval, with Edit, Preview, Approve, Send Now, Move and Skip.',
    body: (
      <>
        A day before each newsletter goes out, Loop writes its draft and texts you a link to it. Open it (or the Loop’s{' '}
        <strong>Newsletter</strong> tab) to edit it and preview it as members will see it, then <strong>Approve</strong> it,{' '}
        <strong>Send Now</strong>, <strong>Move</strong> it to another time or <strong>Skip</strong> this issue. In the Loop’s{' '}
        <strong>Settings</strong>, choose <strong>Send automatically</strong> (it goes at its time unless you change it) or{' '}
        <strong>Let me approve it first</strong> (it waits for you, with one more text 2 hours before).
      </>
    ),
  },
  {
    id: 'newsletter',
    title: 'Enjoy the newsletter',
    shot: 'newsletter',
    alt: 'A finished newsletter with a greeting, each member’s news and their photos.',
    body: (
      <>
        On your group’s schedule (weekly, every two weeks or monthly) Loop writes a newsletter from everything that came in and texts
        everyone the link. Reminders go out before, so nobody forgets to share. Anyone who prefers e-mail chooses{' '}
        <strong>Get the newsletter: by email</strong> on their Profile; without a mail server, the{' '}
        <Link to="/simulator/mail" className="font-medium text-primary underline underline-offset-4">
          Mail Simulator
        </Link>{' '}
        shows every e-mail Loop would have sent.
      </>
    ),
  },
];

/** /guide: how to start, with the real screens. Public: the landing page's Read the Guide and Watch Demo open it. */
export function GuideRoute() {
  return (
    <article className="mx-auto w-full max-w-5xl px-4 py-12 sm:px-6 lg:py-16">
      <PageTitle>Getting Started Guide</PageTitle>
      <header className="mx-auto max-w-2xl text-center">
        <p className="text-sm font-semibold tracking-wide text-primary uppercase">Getting Started Guide</p>
        <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">Your group’s newsletter in six steps</h1>
        <p className="mt-4 text-lg text-muted-foreground">
          From sign-up to the first newsletter, with the screens you will see. It takes about five minutes.
        </p>
      </header>
      <ol id="walkthrough" className="mt-14 grid scroll-mt-20 gap-16">
        {STEPS.map((step, index) => (
          <li key={step.id} id={step.id} className="grid scroll-mt-20 items-center gap-8 md:grid-cols-2 md:gap-12">
            <div className={index % 2 === 1 ? 'md:order-2' : undefined}>
              <p className="flex size-10 items-center justify-center rounded-full bg-primary text-lg font-bold text-primary-foreground">
                <span className="sr-only">Step </span>
                {index + 1}
              </p>
              <h2 className="mt-4 text-2xl font-bold tracking-tight">{step.title}</h2>
              <p className="mt-3 text-lg leading-relaxed text-muted-foreground">{step.body}</p>
            </div>
            <div className="mx-auto w-full max-w-64">
              <Screenshot name={step.shot} alt={step.alt} />
            </div>
          </li>
        ))}
      </ol>
      <div className="mt-16 flex flex-col items-center gap-4 rounded-3xl bg-secondary px-6 py-10 text-center">
        <h2 className="text-2xl font-bold tracking-tight">Ready to start your Loop?</h2>
        <GetStartedButton className="w-full sm:w-auto" />
      </div>
    </article>
  );
}
