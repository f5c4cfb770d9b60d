import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle } from 'lucide-react';
import { Controller, useForm } from 'react-hook-form';
import { registerSchema } from '@loop/shared/auth';
import { LIMITS } from '@loop/shared/constants';
import { MessagingPreferenceField } from '@/components/messaging-preference-field';
import { PhoneInput } from '@/components/phone-input';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toastError } from '@/components/ui/use-toast';
import { useRegister } from '../api/register';

export function SignUpForm({ onSuccess }: { onSuccess: () => void }) {
  const registerAccount = useRegister();
  const form = useForm({
    resolver: zodResolver(registerSchema),
    mode: 'onBlur',
    defaultValues: {
      firstName: '',
      lastName: '',
      email: '',
      password: '',
      phoneNumber: '',
      messagingPreference: 'sms',
    },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    const result = await registerAccount.mutateAsync(values);
    if (result.ok) onSuccess();
    else toastError(result.message, 'Something went wrong');
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="signup-first-name" label="First Name" error={errors.firstName?.message}>
          {(control) => <Input {...control} autoComplete="given-name" {...form.register('firstName')} />}
        </FormField>
        <FormField id="signup-last-name" label="Last Name" error={errors.lastName?.message}>
          {(control) => <Input {...control} autoComplete="family-name" {...form.register('lastName')} />}
        </FormField>
      </div>
      <FormField id="signup-email" label="Email" error={errors.email?.message}>
        {(control) => <Input {...control} type="email" autoComplete="email" {...form.register('email')} />}
      </FormField>
      <FormField
        id="signup-password"
        label="Password"
        hint={`At least ${LIMITS.passwordMin} characters`}
        error={errors.password?.message}
      >
        {(control) => <Input {...control} type="password" autoComplete="new-password" {...form.register('password')} />}
      </FormField>
      <FormField id="signup-phone" label="Phone Number" error={errors.phoneNumber?.message}>
        {(control) => (
          <Controller
            control={form.control}
            name="phoneNumber"
            render={({ field }) => (
              <PhoneInput
                {...control}
                ref={field.ref}
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
              />
            )}
          />
        )}
      </FormField>
      <Controller
        control={form.control}
        name="messagingPreference"
        render={({ field }) => (
          <MessagingPreferenceField name={field.name} value={field.value ?? 'sms'} onChange={field.onChange} />
        )}
      />
      <Button type="submit" size="lg" className="mt-2 w-full" disabled={isSubmitting} aria-busy={isSubmitting}>
        {isSubmitting && <LoaderCircle aria-hidden="true" className="animate-spin" />}
        Sign Up
      </Button>
    </form>
  );
}
