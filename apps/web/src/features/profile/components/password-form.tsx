import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { changePasswordSchema } from '@loop/shared/auth';
import { LIMITS } from '@loop/shared/constants';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useChangePassword } from '../api/change-password';

/** The password in use, then the new one; every other browser signed in to the account is logged out. */
export function PasswordForm() {
  const change = useChangePassword();
  const [failure, setFailure] = useState<string>();
  const form = useForm({
    resolver: zodResolver(changePasswordSchema),
    // Checked when sent, then as typed: a field emptied after a change is not an error when it loses focus.
    mode: 'onSubmit',
    defaultValues: { currentPassword: '', newPassword: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    setFailure(undefined);
    change.mutate(values, {
      onSuccess: () => {
        form.reset();
        toast({ title: 'Password changed successfully!', description: 'Every other browser signed in to your account was logged out.' });
      },
      onError: (error) => {
        setFailure(errorText(error));
        toastError(errorText(error), 'Failed to change password');
      },
    });
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4" aria-label="Change password">
      <FormField id="profile-current-password" label="Current Password" error={errors.currentPassword?.message}>
        {(control) => <Input {...control} type="password" autoComplete="current-password" {...form.register('currentPassword')} />}
      </FormField>
      <FormField
        id="profile-new-password"
        label="New Password"
        hint={`At least ${LIMITS.passwordMin} characters. Other browsers signed in to your account will be logged out.`}
        error={errors.newPassword?.message}
      >
        {(control) => <Input {...control} type="password" autoComplete="new-password" {...form.register('newPassword')} />}
      </FormField>
      {failure && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {failure}
        </p>
      )}
      <Button type="submit" className="justify-self-start" busy={change.isPending}>
        Change Password
      </Button>
    </form>
  );
}
