import type { User } from '@loop/shared/auth';
import { TimeZoneField } from '@/components/time-zone-field';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useUpdateUser } from '../api/update-user';

/**
 * The zone Loop's texts follow for you (reminders at each Loop's times there, nothing at night);
 * saved at once. Unset: your phone number's, else each Loop's.
 */
export function TimeZoneSetting({ user }: { user: User }) {
  const update = useUpdateUser();
  const chosen = update.isPending && update.variables.timeZone !== undefined ? update.variables.timeZone : user.timeZone;
  return (
    <TimeZoneField
      id="profile-time-zone"
      value={chosen}
      automatic="Automatic (from my phone number)"
      hint="Reminders reach you at each loop's times in this zone, and Loop sends you nothing at night there."
      onChange={(timeZone) =>
        update.mutate(
          { timeZone },
          {
            onSuccess: () => toast({ title: 'Time zone updated successfully!' }),
            onError: (error) => toastError(errorText(error), 'Failed to update time zone'),
          },
        )
      }
    />
  );
}
