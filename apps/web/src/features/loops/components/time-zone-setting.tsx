import { Globe } from 'lucide-react';
import type { LoopDetail } from '@loop/shared/loops';
import { TimeZoneField } from '@/components/time-zone-field';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { timeZoneLabel } from '@/lib/time-zone';
import { useUpdateLoop } from '../api/update-loop';

/** The Loop's time zone, for members whose own Loop doesn't know; the owner changes it (saved at once). */
export function TimeZoneSetting({ loop, canEdit }: { loop: LoopDetail; canEdit: boolean }) {
  const update = useUpdateLoop(loop.id);
  const value = update.isPending ? (update.variables.timeZone ?? loop.timeZone) : loop.timeZone;
  if (!canEdit) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <Globe aria-hidden="true" className="size-4" />
        Times are in each member's own time zone ({timeZoneLabel(loop.timeZone)} when Loop doesn't know theirs).
      </p>
    );
  }
  return (
    <TimeZoneField
      id="loop-time-zone"
      value={value}
      hint="Each member gets reminders at these times in their own time zone; this one applies when Loop doesn't know theirs."
      onChange={(timeZone) =>
        void update.mutateAsync({ timeZone: timeZone ?? loop.timeZone }).then(
          () => toast({ title: 'Loop settings updated successfully!' }),
          (error: unknown) => toastError(errorText(error), 'Failed to update loop settings'),
        )
      }
    />
  );
}
