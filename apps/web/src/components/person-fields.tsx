import { useEffect, type ReactNode } from 'react';
import { Controller, useWatch, type FieldValues, type UseFormReturn } from 'react-hook-form';
import type { MessagingPreference, NewsletterDelivery } from '@loop/shared/constants';
import { MessagingPreferenceField } from '@/components/messaging-preference-field';
import { NewsletterDeliveryField } from '@/components/newsletter-delivery-field';
import { PhoneInput } from '@/components/phone-input';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';

/** The fields every person form shares: sign-up, join, Add Member, and Edit (without the email). */
export interface PersonFieldValues extends FieldValues {
  firstName: string;
  lastName: string;
  email?: string | null | undefined;
  phoneNumber: string;
  messagingPreference?: MessagingPreference | undefined;
  newsletterDelivery?: NewsletterDelivery | undefined;
}

interface PersonFieldsProps<T extends Partial<PersonFieldValues>, Parsed extends FieldValues> {
  form: UseFormReturn<T, unknown, Parsed>;
  /** Prefix of the inputs' ids, unique on the page ("signup", "join", "member"). */
  idPrefix: string;
  /** Someone else's details (Add Member): the browser should not fill in the user's own. */
  someoneElse?: boolean;
  emailOptional?: boolean;
  /** Fields between the email and the phone number (the sign-up password). */
  afterEmail?: ReactNode;
  /** Offer "Get the newsletter: by text / by email / both" once an email is typed (join, Add Member). */
  newsletterDelivery?: boolean;
  /** Without the email field (Edit, where the member's address is their own to change). */
  noEmail?: boolean;
  /** Shown but not editable (Edit, for an account holder who said yes). */
  disabled?: boolean;
}

/**
 * First and last name, email, phone number and messaging preference, with their errors; with
 * `newsletterDelivery`, the newsletter's way under the email once one is typed.
 */
export function PersonFields<T extends Partial<PersonFieldValues>, Parsed extends FieldValues>(props: PersonFieldsProps<T, Parsed>) {
  // react-hook-form cannot narrow a generic form to the shared field names: view it as the shared shape.
  const form = props.form as unknown as UseFormReturn<PersonFieldValues>;
  const { idPrefix, someoneElse = false, emailOptional = false, afterEmail, newsletterDelivery = false, noEmail = false, disabled } = props;
  const { errors } = form.formState;
  const email = useWatch({ control: form.control, name: 'email' });
  const hasEmail = newsletterDelivery && (email ?? '').trim() !== '';
  // Without an address the newsletter can only come by text: a hidden choice must not say otherwise.
  useEffect(() => {
    if (newsletterDelivery && !hasEmail && form.getValues('newsletterDelivery') !== 'text') form.setValue('newsletterDelivery', 'text');
  }, [form, newsletterDelivery, hasEmail]);
  const auto = (value: string) => (someoneElse ? 'off' : value);
  return (
    <>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField id={`${idPrefix}-first-name`} label="First Name" error={errors.firstName?.message}>
          {(control) => (
            <Input
              {...control}
              autoComplete={auto('given-name')}
              autoFocus={someoneElse}
              disabled={disabled}
              {...form.register('firstName')}
            />
          )}
        </FormField>
        <FormField id={`${idPrefix}-last-name`} label="Last Name" error={errors.lastName?.message}>
          {(control) => <Input {...control} autoComplete={auto('family-name')} disabled={disabled} {...form.register('lastName')} />}
        </FormField>
      </div>
      {!noEmail && (
        <FormField id={`${idPrefix}-email`} label={emailOptional ? 'Email (Optional)' : 'Email'} error={errors.email?.message}>
          {(control) => <Input {...control} type="email" autoComplete={auto('email')} {...form.register('email')} />}
        </FormField>
      )}
      {hasEmail && (
        <Controller
          control={form.control}
          name="newsletterDelivery"
          render={({ field, fieldState }) => (
            <NewsletterDeliveryField
              name={field.name}
              value={field.value ?? 'text'}
              onChange={field.onChange}
              error={fieldState.error?.message}
            />
          )}
        />
      )}
      {afterEmail}
      <FormField id={`${idPrefix}-phone`} label="Phone Number" error={errors.phoneNumber?.message}>
        {(control) => (
          <Controller
            control={form.control}
            name="phoneNumber"
            render={({ field }) => (
              <PhoneInput
                {...control}
                ref={field.ref}
                name={field.name}
                value={field.value ?? ''}
                onChange={(value: string) => {
                  field.onChange(value);
                  // "Phone number is required" goes as soon as a number is typed, not on the next
                  // blur; the number is checked again on blur and on submit.
                  if (value !== '' && form.getFieldState('phoneNumber').error) form.clearErrors('phoneNumber');
                }}
                onBlur={field.onBlur}
                disabled={disabled}
              />
            )}
          />
        )}
      </FormField>
      <Controller
        control={form.control}
        name="messagingPreference"
        render={({ field }) => (
          <MessagingPreferenceField name={field.name} value={field.value ?? 'sms'} onChange={field.onChange} disabled={disabled} />
        )}
      />
    </>
  );
}
