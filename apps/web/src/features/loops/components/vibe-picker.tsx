import { VIBES, type Vibe } from '@loop/shared/constants';
import { Checkbox } from '@/components/ui/checkbox';
import { cn } from '@/lib/cn';

/** "co-workers" → "Co-workers". */
export function vibeLabel(vibe: string): string {
  return vibe.charAt(0).toUpperCase() + vibe.slice(1);
}

interface VibePickerProps {
  id: string;
  value: readonly string[];
  onChange: (value: Vibe[]) => void;
  onBlur?: () => void;
  disabled?: boolean;
  'aria-invalid'?: true | undefined;
  'aria-describedby'?: string | undefined;
}

/** The newsletter vibes (docs/product.md#input-rules) as a group of large checkboxes, in the order of VIBES. */
export function VibePicker({ id, value, onChange, onBlur, disabled, ...aria }: VibePickerProps) {
  const toggle = (vibe: Vibe, checked: boolean) => onChange(VIBES.filter((option) => (option === vibe ? checked : value.includes(option))));
  return (
    <div
      role="group"
      aria-labelledby={`${id}-label`}
      aria-describedby={aria['aria-describedby']}
      className="grid grid-cols-2 gap-2 sm:grid-cols-3"
    >
      {VIBES.map((vibe) => {
        const checked = value.includes(vibe);
        return (
          <label
            key={vibe}
            className={cn(
              'flex min-h-11 cursor-pointer items-center gap-2.5 rounded-lg border border-input bg-card px-3 py-2 text-sm font-medium transition-colors hover:bg-accent has-[[data-disabled]]:cursor-not-allowed has-[[data-disabled]]:opacity-60',
              checked && 'border-primary bg-accent',
              aria['aria-invalid'] && !checked && 'border-destructive/50',
            )}
          >
            <Checkbox
              id={`${id}-${vibe}`}
              checked={checked}
              disabled={disabled}
              aria-invalid={aria['aria-invalid']}
              onCheckedChange={(next) => toggle(vibe, next === true)}
              onBlur={onBlur}
            />
            {vibeLabel(vibe)}
          </label>
        );
      })}
    </div>
  );
}
