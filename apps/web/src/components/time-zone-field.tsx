import { Globe } from 'lucide-react';
import { NativeSelect } from '@/components/ui/native-select';
import { timeZoneLabel, timeZoneOptions } from '@/lib/time-zone';

/**
 * A labelled time-zone select saved at once (a Loop's zone, a person's own). With `automatic`,
 * a first option of that label stands for no choice (''): the value is then null.
 */
export function TimeZoneField({
  id,
  value,
  onChange,
  hint,
  automatic,
}: {
  id: string;
  value: string | null;
  onChange: (zone: string | null) => void;
  hint: string;
  automatic?: string;
}) {
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="flex items-center gap-2 text-sm font-medium">
        <Globe aria-hidden="true" className="size-4 text-muted-foreground" />
        Time Zone
      </label>
      <NativeSelect
        id={id}
        aria-describedby={`${id}-hint`}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || null)}
        className="sm:max-w-sm"
      >
        {automatic !== undefined && <option value="">{automatic}</option>}
        {timeZoneOptions(value ?? undefined).map((zone) => (
          <option key={zone} value={zone}>
            {timeZoneLabel(zone)}
          </option>
        ))}
      </NativeSelect>
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        {hint}
      </p>
    </div>
  );
}
