import { useEffect, useState, type FormEvent } from 'react';
import { phoneNumberSchema, type PhoneChangeStarted, type User } from '@loop/shared/auth';
import { CodeField, NO_TEXT_HINT, ResendButton, resendTime, SAME_BROWSER_HINT, SimulatedText, useCodeField } from '@/components/code-step';
import { PhoneInput } from '@/components/phone-input';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { toast, toastError } from '@/components/ui/use-toast';
import { ApiError, errorText } from '@/lib/api-client';
import { formatPhoneNumber } from '@/lib/phone-format';
import { prepareProofOfWork } from '@/lib/proof-of-work';
import { startPhoneChange, useVerifyPhoneChange } from '../api/change-phone';
import { PasswordField } from './password-field';

/** `password`: the one typed with the number, kept for "Resend code" while the code step shows. */
type Step = { at: 'view' } | { at: 'enter' } | { at: 'code'; started: PhoneChangeStarted; resendAt: number; password: string };

/**
 * The phone number Loop texts, and "Change phone number": the current password and the new
 * number, then a code texted to it; only that code, typed here, moves the account and its Loops
 * to it (decisions 0044 and 0052).
 */
export function PhoneNumberSetting({ user }: { user: User }) {
  const [step, setStep] = useState<Step>({ at: 'view' });
  const begin = (started: PhoneChangeStarted, password: string) =>
    setStep({ at: 'code', started, resendAt: resendTime(started.resendAfterSeconds), password });

  return (
    <div className="grid gap-4">
      <dl className="grid gap-1">
        <dt className="text-sm font-medium text-muted-foreground">Phone Number</dt>
        <dd className="break-words text-base">{formatPhoneNumber(user.phoneNumber)}</dd>
      </dl>
      {step.at === 'view' && (
        <Button type="button" variant="outline" className="justify-self-start" onClick={() => setStep({ at: 'enter' })}>
          Change phone number
        </Button>
      )}
      {step.at === 'enter' && <NewNumberForm onStarted={begin} onCancel={() => setStep({ at: 'view' })} />}
      {step.at === 'code' && (
        <PhoneCodeStep
          started={step.started}
          resendAt={step.resendAt}
          password={step.password}
          onResent={begin}
          onChangeNumber={() => setStep({ at: 'enter' })}
          onDone={() => setStep({ at: 'view' })}
        />
      )}
    </div>
  );
}

function NewNumberForm({
  onStarted,
  onCancel,
}: {
  onStarted: (started: PhoneChangeStarted, password: string) => void;
  onCancel: () => void;
}) {
  const [phoneNumber, setPhoneNumber] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [passwordError, setPasswordError] = useState<string>();
  const [sending, setSending] = useState(false);
  // The check against spam is solved while the person types (decision 0030).
  useEffect(prepareProofOfWork, []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = phoneNumberSchema.safeParse(phoneNumber);
    setPasswordError(password === '' ? 'Enter your current password' : undefined);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      document.getElementById('profile-new-phone')?.focus();
      return;
    }
    if (password === '') {
      document.getElementById('profile-phone-password')?.focus();
      return;
    }
    setError(undefined);
    setSending(true);
    try {
      onStarted(await startPhoneChange(parsed.data, password), password);
    } catch (failure) {
      // A wrong password is said under its own field; anything else under the number.
      if (isPasswordError(failure)) setPasswordError(errorText(failure));
      else setError(errorText(failure));
      toastError(errorText(failure), 'Failed to update phone number');
    } finally {
      setSending(false);
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4" aria-label="New phone number">
      <FormField
        id="profile-new-phone"
        label="New Phone Number"
        hint="We text a code to it. Your loops move to it once you enter the code."
        error={error}
      >
        {(control) => <PhoneInput {...control} name="phoneNumber" value={phoneNumber} onChange={setPhoneNumber} />}
      </FormField>
      <PasswordField
        id="profile-phone-password"
        label="Current Password"
        hint="Only you can move your account to a new number."
        value={password}
        onChange={setPassword}
        error={passwordError}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" busy={sending}>
          Send code
        </Button>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function PhoneCodeStep({
  started,
  resendAt,
  password,
  onResent,
  onChangeNumber,
  onDone,
}: {
  started: PhoneChangeStarted;
  resendAt: number;
  password: string;
  onResent: (started: PhoneChangeStarted, password: string) => void;
  onChangeNumber: () => void;
  onDone: () => void;
}) {
  const verify = useVerifyPhoneChange();
  const input = useCodeField('profile-phone-code');
  const [failure, setFailure] = useState<string>();
  const [resending, setResending] = useState(false);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!input.check()) return;
    setFailure(undefined);
    verify.mutate(
      { phoneNumber: started.phoneNumber, code: input.code },
      {
        onSuccess: () => {
          toast({ title: 'Phone number updated successfully!' });
          onDone();
        },
        onError: (error) => {
          setFailure(errorText(error));
          toastError(errorText(error), 'Failed to update phone number');
        },
      },
    );
  };
  const onResend = async () => {
    setResending(true);
    try {
      onResent(await startPhoneChange(started.phoneNumber, password), password);
      input.clear();
    } catch (error) {
      toastError(errorText(error), 'Failed to update phone number');
    } finally {
      setResending(false);
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Code for the new phone number">
      <p className="text-sm" role="status">
        We texted a code to <strong className="whitespace-nowrap">{formatPhoneNumber(started.phoneNumber)}</strong>
      </p>
      <SimulatedText text={started.simulatedText} />
      <CodeField {...input.field} />
      {failure && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {failure}
        </p>
      )}
      <Button type="submit" className="w-full" busy={verify.isPending}>
        Verify and Change Number
      </Button>
      <ResendButton until={resendAt} busy={resending} onResend={() => void onResend()} />
      <Button type="button" variant="link" className="h-auto justify-self-center py-1" onClick={onChangeNumber}>
        Change number
      </Button>
      <p className="text-xs text-muted-foreground">{NO_TEXT_HINT}</p>
      <p className="text-xs text-muted-foreground">
        No code is sent to a number that already has a Loop account: if it is yours, log in with it instead.
      </p>
      <p className="text-xs text-muted-foreground">{SAME_BROWSER_HINT}</p>
    </form>
  );
}

/** The server's answer to a wrong current password names the field (decision 0052). */
function isPasswordError(failure: unknown): boolean {
  return failure instanceof ApiError && failure.fields.some((field) => field.path === 'currentPassword');
}
