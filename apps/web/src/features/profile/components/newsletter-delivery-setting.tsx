import { useState } from 'react';
import type { User } from '@loop/shared/auth';
import { EmailStatusNote } from '@/components/email-status';
import { NewsletterDeliveryField } from '@/components/newsletter-delivery-field';
import { toast } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useUpdateUser } from '../api/update-user';

/**
 * By text, by email or both; a change is saved at once. Choosing e-mail with an address not yet
 * confirmed sends one confirmation link; the address's standing shows under the choice. A refusal
 * (no address yet) shows under the field.
 */
export function NewsletterDeliverySetting({ user }: { user: User }) {
  const update = useUpdateUser();
  const [failure, setFailure] = useState<string>();
  // While saving, show the choice just made; if saving fails, the saved one comes back.
  const value = (update.isPending ? update.variables.newsletterDelivery : undefined) ?? user.newsletterDelivery;
  return (
    <div className="grid gap-2">
      <NewsletterDeliveryField
        name="newsletterDelivery"
        value={value}
        error={failure}
        onChange={(newsletterDelivery) => {
          if (newsletterDelivery === value) return;
          setFailure(undefined);
          update.mutate(
            { newsletterDelivery },
            {
              onSuccess: (saved) =>
                toast({
                  title:
                    saved.newsletterDelivery !== 'text' && saved.emailStatus === 'unconfirmed'
                      ? `We sent a link to ${saved.email ?? 'your email'}: open it to confirm`
                      : 'Newsletter delivery updated successfully!',
                }),
              onError: (error) => setFailure(errorText(error)),
            },
          );
        }}
      />
      {user.newsletterDelivery !== 'text' && <EmailStatusNote status={user.emailStatus} />}
      {/* E-mail stopped (unsubscribe, complaint, bounces): the server texts the link instead (decision 0047). */}
      {user.newsletterDelivery !== 'text' && (user.emailStatus === 'unsubscribed' || user.emailStatus === 'bouncing') && (
        <p className="text-sm" data-testid="newsletter-by-text-now">
          {user.emailStatus === 'unsubscribed' ? 'You unsubscribed from the newsletter emails' : 'Emails to this address bounce'}, so the
          newsletter now comes by text.
        </p>
      )}
    </div>
  );
}
