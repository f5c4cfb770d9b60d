import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { NewsletterDelivery } from '@loop/shared/constants';
import { joinLoopSchema, type JoinAnswer } from '@loop/shared/loops';
import { PersonFields } from '@/components/person-fields';
import { Button } from '@/components/ui/button';
import { toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { showFieldErrors } from '@/lib/field-errors';
import { useJoinLoop } from '../api/join-loop';

/** First and last name, optional email, phone and messaging preference (docs/product.md#join-a-loop). */
export function JoinForm({
  code,
  onJoined,
}: {
  code: string;
  onJoined: (answer: JoinAnswer, phoneNumber: string, delivery: { newsletterDelivery: NewsletterDelivery; email: string }) => void;
}) {
  const join = useJoinLoop(code);
  const form = useForm({
    resolver: zodResolver(joinLoopSchema),
    mode: 'onBlur',
    defaultValues: { firstName: '', lastName: '', email: '', phoneNumber: '', messagingPreference: 'sms', newsletterDelivery: 'text' },
  });
  const { isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      // No "Success!" toast: the person is not in the Loop until they reply YES, and the card
      // that replaces the form (role="status", read out) says so.
      onJoined(await join.mutateAsync(values), values.phoneNumber, {
        newsletterDelivery: values.newsletterDelivery ?? 'text',
        email: values.email ?? '',
      });
    } catch (error) {
      // A refusal that names a field (the newsletter by email without an address) shows under it.
      if (!showFieldErrors(form, error)) toastError(errorText(error), 'Failed to join loop');
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <PersonFields form={form} idPrefix="join" emailOptional newsletterDelivery />
      <Button type="submit" size="lg" className="mt-2 w-full" busy={isSubmitting}>
        Join Loop
      </Button>
    </form>
  );
}
