import { PageTitle } from '@/components/page-title';
import { ClosingBanner } from '@/features/landing/components/closing-banner';
import { Faq } from '@/features/landing/components/faq';
import { GuideTeaser } from '@/features/landing/components/guide-teaser';
import { Hero } from '@/features/landing/components/hero';
import { HowItWorks } from '@/features/landing/components/how-it-works';

/** The marketing page: signed-out "/" (docs/product.md#landing-page). */
export function LandingRoute() {
  return (
    <div className="flex flex-col">
      <PageTitle>Group updates by text, as a newsletter</PageTitle>
      <Hero />
      <HowItWorks />
      <GuideTeaser />
      <Faq />
      <ClosingBanner />
    </div>
  );
}
