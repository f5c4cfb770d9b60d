import { MessageCircle, MessageSquareText } from 'lucide-react';
import { useId } from 'react';
import { MESSAGING_PREFERENCES, type MessagingPreference } from '@loop/shared/constants';
import { cn } from '@/lib/cn';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';

export const MESSAGING_PREFERENCE_HINT = "Choose how you'd like to receive updates and reminders";

const OPTIONS = [
  { value: 'sms', label: 'SMS', Icon: MessageSquareText },
  { value: 'whatsapp', label: 'WhatsApp', Icon: MessageCircle },
] as const satisfies readonly { value: MessagingPreference; label: string; Icon: unknown }[];

function isMessagingPreference(value: string): value is MessagingPreference {
  return (MESSAGING_PREFERENCES as readonly string[]).includes(value);
}

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
export function MessagingPreferenceField({
  value,
  onChange,
  label = 'Messaging Preference',
  disabled,
  name,
  className,
}: MessagingPreferenceFieldProps) {
  const id = useId();
  return (
    <div className={cn('grid gap-2', className)}>
      <div id={`${id}-label`} className="text-sm font-medium leading-none">
        {label}
      </div>
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        {MESSAGING_PREFERENCE_HINT}
      </p>
      <RadioGroup
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-hint`}
        value={value}
        onValueChange={(next) => {
          if (isMessagingPreference(next)) onChange(next);
        }}
        disabled={disabled}
        name={name}
        className="grid-cols-2 gap-3"
      >
        {OPTIONS.map(({ value: option, label: optionLabel, Icon }) => (
          <label
            key={option}
            htmlFor={`${id}-${option}`}
            className="flex min-h-12 cursor-pointer items-center gap-2 rounded-lg border border-input bg-card px-3 py-2.5 sm:gap-3 text-sm font-medium transition-colors hover:bg-accent has-[[data-disabled]]:cursor-not-allowed has-[[data-state=checked]]:border-primary has-[[data-state=checked]]:bg-accent"
          >
            <RadioGroupItem id={`${id}-${option}`} value={option} />
            <Icon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
            {optionLabel}
          </label>
        ))}
      </RadioGroup>
    </div>
  );
}
