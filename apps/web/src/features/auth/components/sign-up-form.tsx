import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { registerSchema } from '@loop/shared/auth';
import { LIMITS } from '@loop/shared/constants';
import { PersonFields } from '@/components/person-fields';
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
      <PersonFields
        form={form}
        idPrefix="signup"
        afterEmail={
          <FormField
            id="signup-password"
            label="Password"
            hint={`At least ${LIMITS.passwordMin} characters`}
            error={errors.password?.message}
          >
            {(control) => <Input {...control} type="password" autoComplete="new-password" {...form.register('password')} />}
          </FormField>
        }
      />
      <Button type="submit" size="lg" className="mt-2 w-full" busy={isSubmitting}>
        Sign Up
      </Button>
    </form>
  );
}
