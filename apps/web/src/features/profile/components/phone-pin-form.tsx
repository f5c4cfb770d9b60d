import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { setPhonePinSchema } from '@loop/shared/auth';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useSetPhonePin } from '../api/set-phone-pin';

/**
 * The phone line's PIN (decision 0067): four digits a call from the person's phone asks for when the
 * caller ID cannot be proved, set with the password in use so a session alone cannot set it.
 */
export function PhonePinForm() {
  const set = useSetPhonePin();
  const [failure, setFailure] = useState<string>();
  const form = useForm({
    resolver: zodResolver(setPhonePinSchema),
    mode: 'onSubmit',
    defaultValues: { pin: '', currentPassword: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    setFailure(undefined);
    set.mutate(values, {
      onSuccess: () => {
        form.reset();
        toast({ title: 'Phone PIN saved!', description: 'Loop asks for it when you call from your phone.' });
      },
      onError: (error) => {
        setFailure(errorText(error));
        toastError(errorText(error), 'Failed to save your phone PIN');
      },
    });
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4" aria-label="Phone PIN">
      <p className="text-sm text-muted-foreground">
        Use your phone PIN to hear your Loops&apos; newsletters by calling Loop&apos;s number from your phone. When Loop cannot be sure a
        call comes from your phone, it asks for these four digits. You can also set it by texting PIN and four digits (such as PIN 4821) to
        Loop.
      </p>
      <FormField id="profile-phone-pin" label="New PIN" hint="Four digits, such as 4821." error={errors.pin?.message}>
        {(control) => (
          <Input
            {...control}
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={4}
            className="max-w-32 tracking-widest"
            {...form.register('pin')}
          />
        )}
      </FormField>
      <FormField id="profile-phone-pin-password" label="Current Password" error={errors.currentPassword?.message}>
        {(control) => <Input {...control} type="password" autoComplete="current-password" {...form.register('currentPassword')} />}
      </FormField>
      {failure && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {failure}
        </p>
      )}
      <Button type="submit" className="justify-self-start" busy={set.isPending}>
        Save PIN
      </Button>
    </form>
  );
}
