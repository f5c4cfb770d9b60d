import type { User } from '@loop/shared/auth';
import { MessagingPreferenceField } from '@/components/messaging-preference-field';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useUpdateUser } from '../api/update-user';

/** SMS or WhatsApp; a change is saved at once. */
export function MessagingPreferenceSetting({ user }: { user: User }) {
  const update = useUpdateUser();
  // While saving, show the choice just made; if saving fails, the saved one comes back.
  const value = (update.isPending ? update.variables.messagingPreference : undefined) ?? user.messagingPreference;
  return (
    <MessagingPreferenceField
      name="messagingPreference"
      value={value}
      onChange={(messagingPreference) => {
        if (messagingPreference === value) return;
        update.mutate(
          { messagingPreference },
          {
            onSuccess: () => toast({ title: 'Messaging preference updated successfully!' }),
            onError: (error) => toastError(errorText(error), 'Failed to update messaging preference'),
          },
        );
      }}
    />
  );
}
