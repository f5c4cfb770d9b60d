import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { emailSchema, personNameSchema, type User } from '@loop/shared/auth';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useUpdateUser } from '../api/update-user';

/** The same rules as sign-up: names without links or phone numbers (Loop quotes them in texts). */
const detailsSchema = z.object({
  firstName: personNameSchema('First name'),
  lastName: personNameSchema('Last name'),
  email: emailSchema,
});

/** First and last name and email, edited in place and saved together. */
export function DetailsForm({ user }: { user: User }) {
  const update = useUpdateUser();
  const [failure, setFailure] = useState<string>();
  const form = useForm({
    resolver: zodResolver(detailsSchema),
    mode: 'onBlur',
    values: { firstName: user.firstName, lastName: user.lastName, email: user.email ?? '' },
  });
  const { errors, isDirty } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    setFailure(undefined);
    update.mutate(values, {
      onSuccess: (saved) => {
        // A new address is the account's once its link is followed (decision 0054): until then the
        // answer keeps the old one.
        if (values.email.toLowerCase() !== (saved.email ?? '').toLowerCase()) {
          form.reset({ ...values, email: saved.email ?? '' });
          toast({
            title: 'Check your inbox',
            description: `We sent a link to ${values.email}. Your email changes to it once you follow the link.`,
          });
        } else toast({ title: 'Profile updated successfully!' });
      },
      onError: (error) => {
        setFailure(errorText(error));
        toastError(errorText(error), 'Failed to update profile');
      },
    });
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4" aria-label="Your details">
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField id="profile-first-name" label="First Name" error={errors.firstName?.message}>
          {(control) => <Input {...control} autoComplete="given-name" {...form.register('firstName')} />}
        </FormField>
        <FormField id="profile-last-name" label="Last Name" error={errors.lastName?.message}>
          {(control) => <Input {...control} autoComplete="family-name" {...form.register('lastName')} />}
        </FormField>
      </div>
      <FormField id="profile-email" label="Email" error={errors.email?.message}>
        {(control) => <Input {...control} type="email" autoComplete="email" {...form.register('email')} />}
      </FormField>
      {failure && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {failure}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" busy={update.isPending} disabled={!isDirty}>
          Save Changes
        </Button>
        {isDirty && (
          <Button
            type="button"
            variant="outline"
            onClick={() => {
              setFailure(undefined);
              form.reset();
            }}
          >
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
