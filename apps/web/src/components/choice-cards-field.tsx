import type { ComponentType } from 'react';
import { useId } from 'react';
import { cn } from '@/lib/cn';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';

export interface ChoiceCard<V extends string> {
  value: V;
  label: string;
  Icon: ComponentType<{ 'aria-hidden'?: boolean | 'true'; className?: string }>;
}

interface ChoiceCardsFieldProps<V extends string> {
  label: string;
  hint: string;
  options: readonly ChoiceCard<V>[];
  value: V;
  onChange: (value: V) => void;
  /** The field's error (a server's answer), shown under the cards and linked to them. */
  error?: string | undefined;
  disabled?: boolean;
  name?: string;
  className?: string;
  /** The grid of cards, e.g. "grid-cols-2" or "sm:grid-cols-3". */
  columns?: string;
}

/** One choice of a few, as large radio cards under the label and hint (docs/product.md#sign-in-and-sign-up). */
export function ChoiceCardsField<V extends string>({
  label,
  hint,
  options,
  value,
  onChange,
  error,
  disabled,
  name,
  className,
  columns = 'grid-cols-2',
}: ChoiceCardsFieldProps<V>) {
  const id = useId();
  const describedBy = error ? `${id}-hint ${id}-error` : `${id}-hint`;
  return (
    <div className={cn('grid gap-2', className)}>
      <div id={`${id}-label`} className="text-sm font-medium leading-none">
        {label}
      </div>
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        {hint}
      </p>
      <RadioGroup
        aria-labelledby={`${id}-label`}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        value={value}
        onValueChange={(next) => {
          const option = options.find((o) => o.value === next);
          if (option) onChange(option.value);
        }}
        disabled={disabled}
        name={name}
        className={cn('gap-3', columns)}
      >
        {options.map(({ value: option, label: optionLabel, Icon }) => (
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
      {error && (
        <p id={`${id}-error`} className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
