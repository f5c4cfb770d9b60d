import { Mail, MailPlus, MessageSquareText } from 'lucide-react';
import type { NewsletterDelivery } from '@loop/shared/constants';
import { ChoiceCardsField, type ChoiceCard } from '@/components/choice-cards-field';

export const NEWSLETTER_DELIVERY_HINT = 'By text with a link to it, by email, or both';

const OPTIONS: readonly ChoiceCard<NewsletterDelivery>[] = [
  { value: 'text', label: 'By text', Icon: MessageSquareText },
  { value: 'email', label: 'By email', Icon: Mail },
  { value: 'both', label: 'Both', Icon: MailPlus },
];

interface NewsletterDeliveryFieldProps {
  value: NewsletterDelivery;
  onChange: (value: NewsletterDelivery) => void;
  /** The server's answer (e.g. "Add an email address first..."), shown under the choice. */
  error?: string | undefined;
  disabled?: boolean;
  name?: string;
  className?: string;
}

/** Get the newsletter: by text, by email, or both (Profile, the join page, Add Member). */
export function NewsletterDeliveryField(props: NewsletterDeliveryFieldProps) {
  return (
    <ChoiceCardsField label="Get the newsletter" hint={NEWSLETTER_DELIVERY_HINT} options={OPTIONS} columns="sm:grid-cols-3" {...props} />
  );
}
