import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@/components/ui/accordion';

const QUESTIONS = [
  {
    q: 'How do I sign up?',
    a: 'Choose Get Started for Free!, enter your name, email and phone number, and pick SMS or WhatsApp. Then create a Loop and add the people in your group, or share an invite link so they can join themselves.',
  },
  { q: 'How much does Loop cost?', a: 'Nothing at all. Loop is free.' },
  {
    q: 'Can I be in more than one Loop?',
    a: 'Yes. A text goes to all of your Loops, or start it with a Loop’s name and a colon ("Family: …") to share with that one only.',
  },
  {
    q: 'When should I send updates?',
    a: 'Anytime, anywhere. Loop collects everything until the next newsletter and sends a friendly reminder on your group’s schedule.',
  },
  { q: 'How many texts can I send?', a: 'As many as you want. Every one can make it into the next newsletter.' },
  {
    q: 'What can I send?',
    a: 'Texts, photos, voice memos (up to 5 minutes) and short videos (up to 2 minutes). They play right in the newsletter.',
  },
];

/** One answer open at a time; the open one closes again on a second click. */
export function Faq() {
  return (
    <section aria-labelledby="faq-title" className="mx-auto w-full max-w-3xl px-4 py-16 sm:px-6 lg:py-24">
      <h2 id="faq-title" className="text-center text-3xl font-bold tracking-tight sm:text-4xl">
        Frequently asked questions
      </h2>
      <Accordion type="single" collapsible className="mt-10 rounded-2xl border bg-card px-5 shadow-sm sm:px-6">
        {QUESTIONS.map(({ q, a }) => (
          <AccordionItem key={q} value={q}>
            <AccordionTrigger>{q}</AccordionTrigger>
            <AccordionContent>{a}</AccordionContent>
          </AccordionItem>
        ))}
      </Accordion>
    </section>
  );
}
