import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle } from 'lucide-react';
import { Controller, useForm } from 'react-hook-form';
import { joinLoopSchema } from '@loop/shared/loops';
import { MessagingPreferenceField } from '@/components/messaging-preference-field';
import { PhoneInput } from '@/components/phone-input';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useJoinLoop } from '../api/join-loop';

/** First and last name, optional email, phone and messaging preference (SPEC §2 Join Loop page). */
export function JoinForm({ code, onJoined }: { code: string; onJoined: () => void }) {
  const join = useJoinLoop(code);
  const form = useForm({
    resolver: zodResolver(joinLoopSchema),
    mode: 'onBlur',
    defaultValues: { firstName: '', lastName: '', email: '', phoneNumber: '', messagingPreference: 'sms' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await join.mutateAsync(values);
      toast({ title: 'Success!', description: "You've successfully joined the loop!" });
      onJoined();
    } catch (error) {
      toastError(errorText(error), 'Failed to join loop');
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="join-first-name" label="First Name" error={errors.firstName?.message}>
          {(control) => <Input {...control} autoComplete="given-name" {...form.register('firstName')} />}
        </FormField>
        <FormField id="join-last-name" label="Last Name" error={errors.lastName?.message}>
          {(control) => <Input {...control} autoComplete="family-name" {...form.register('lastName')} />}
        </FormField>
      </div>
      <FormField id="join-email" label="Email (Optional)" error={errors.email?.message}>
        {(control) => <Input {...control} type="email" autoComplete="email" {...form.register('email')} />}
      </FormField>
      <FormField id="join-phone" label="Phone Number" error={errors.phoneNumber?.message}>
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
        Join Loop
      </Button>
    </form>
  );
}
