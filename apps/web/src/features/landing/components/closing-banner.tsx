import { GetStartedButton } from './get-started-button';

export function ClosingBanner() {
  return (
    <section aria-labelledby="closing-title" className="mx-auto w-full max-w-6xl px-4 pb-16 sm:px-6 lg:pb-24">
      <div className="flex flex-col items-center gap-5 rounded-3xl bg-primary px-6 py-12 text-center text-primary-foreground shadow-lg sm:py-16">
        <h2 id="closing-title" className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
          Ready to keep your group connected?
        </h2>
        <p className="max-w-lg text-lg text-pretty text-primary-foreground">
          Start a Loop in a minute. Your first newsletter is on its way as soon as the texts come in.
        </p>
        <GetStartedButton variant="secondary" className="w-full sm:w-auto" />
      </div>
    </section>
  );
}
