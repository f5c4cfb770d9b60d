import { MessageCircle, MessageSquareText } from 'lucide-react';
import type { MessagingPreference } from '@loop/shared/constants';
import { ChoiceCardsField, type ChoiceCard } from '@/components/choice-cards-field';

export const MESSAGING_PREFERENCE_HINT = "Choose how you'd like to receive updates and reminders";

const OPTIONS: readonly ChoiceCard<MessagingPreference>[] = [
  { value: 'sms', label: 'SMS', Icon: MessageSquareText },
  { value: 'whatsapp', label: 'WhatsApp', Icon: MessageCircle },
];

interface MessagingPreferenceFieldProps {
  value: MessagingPreference;
  onChange: (value: MessagingPreference) => void;
  /** The field's label; a page that titles the field itself can pass its own words. */
  label?: string;
  disabled?: boolean;
  name?: string;
  className?: string;
}

/** SMS or WhatsApp, as two large radio cards under the label and hint (docs/product.md#sign-in-and-sign-up). */
export function MessagingPreferenceField({ label = 'Messaging Preference', ...props }: MessagingPreferenceFieldProps) {
  return <ChoiceCardsField label={label} hint={MESSAGING_PREFERENCE_HINT} options={OPTIONS} {...props} />;
}
