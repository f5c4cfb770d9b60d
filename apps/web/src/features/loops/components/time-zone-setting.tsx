import { Globe } from 'lucide-react';
import type { LoopDetail } from '@loop/shared/loops';
import { NativeSelect } from '@/components/ui/native-select';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { timeZoneLabel, timeZoneOptions } from '@/lib/time-zone';
import { useUpdateLoop } from '../api/update-loop';

/** The Loop's time zone, which reminder times are in; the owner changes it (saved at once). */
export function TimeZoneSetting({ loop, canEdit }: { loop: LoopDetail; canEdit: boolean }) {
  const update = useUpdateLoop(loop.id);
  const value = update.isPending ? (update.variables.timeZone ?? loop.timeZone) : loop.timeZone;
  if (!canEdit) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <Globe aria-hidden="true" className="size-4" />
        Times are in {timeZoneLabel(loop.timeZone)}.
      </p>
    );
  }
  return (
    <div className="grid gap-2">
      <label htmlFor="loop-time-zone" className="flex items-center gap-2 text-sm font-medium">
        <Globe aria-hidden="true" className="size-4 text-muted-foreground" />
        Time Zone
      </label>
      <NativeSelect
        id="loop-time-zone"
        aria-describedby="loop-time-zone-hint"
        value={value}
        onChange={(event) =>
          void update.mutateAsync({ timeZone: event.target.value }).then(
            () => toast({ title: 'Loop settings updated successfully!' }),
            (error: unknown) => toastError(errorText(error), 'Failed to update loop settings'),
          )
        }
        className="sm:max-w-sm"
      >
        {timeZoneOptions(loop.timeZone).map((zone) => (
          <option key={zone} value={zone}>
            {timeZoneLabel(zone)}
          </option>
        ))}
      </NativeSelect>
      <p id="loop-time-zone-hint" className="text-sm text-muted-foreground">
        Reminder times are in this time zone.
      </p>
    </div>
  );
}
