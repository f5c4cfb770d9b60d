import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { registerSchema, type PendingSignUp, type SignUpStarted } from '@loop/shared/auth';
import { LIMITS } from '@loop/shared/constants';
import { formatPhoneNumber } from '@/lib/phone-format';
import { PersonFields } from '@/components/person-fields';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { showFieldErrors } from '@/lib/field-errors';
import { prepareProofOfWork } from '@/lib/proof-of-work';
import { resendSignUpCode, startSignUp, useVerifySignUp } from '../api/register';
import { CodeField, NO_TEXT_HINT, ResendButton, resendTime, SAME_BROWSER_HINT, SimulatedText, useCodeField } from '@/components/code-step';

/** The code step: the phone as shown, the phone to send with the code (none after a reload: the server knows it). */
interface CodeStep {
  phoneLabel: string;
  phoneNumber: string | undefined;
  simulatedText: string | null;
  resendAt: number;
}

/**
 * Sign Up (docs/product.md#sign-in-and-sign-up), then the code texted to the phone: no account
 * exists before it checks out. `resume`: the sign-up this browser started before a reload, whose
 * code step opens again (its phone masked).
 */
export function SignUpForm({ onSuccess, resume = null }: { onSuccess: () => void; resume?: PendingSignUp['signUp'] }) {
  const [started, setStarted] = useState<CodeStep | null>(() =>
    resume
      ? {
          phoneLabel: resume.maskedPhoneNumber,
          phoneNumber: undefined,
          simulatedText: null,
          resendAt: resendTime(resume.resendAfterSeconds),
        }
      : null,
  );
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
  // The check against spam is solved while the person fills the form in (decision 0030).
  useEffect(prepareProofOfWork, []);
  const begin = (answer: SignUpStarted) => {
    // A resend after a reload answers with the phone masked, as the server knows it: shown as it is.
    const masked = answer.phoneNumber.includes('•');
    setStarted({
      phoneLabel: masked ? answer.phoneNumber : formatPhoneNumber(answer.phoneNumber),
      phoneNumber: masked ? undefined : answer.phoneNumber,
      simulatedText: answer.simulatedText,
      resendAt: resendTime(answer.resendAfterSeconds),
    });
  };

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      begin(await startSignUp(values));
    } catch (error) {
      if (!showFieldErrors(form, error)) toastError(errorText(error), 'Something went wrong');
    }
  });

  if (started) {
    return (
      <SignUpCodeStep
        step={started}
        // "Resend code" sends the form again from this browser: a new code for its own sign-up,
        // or a new sign-up once the old one's code ran out (decision 0027). After a reload the
        // form is gone (the password is never kept): a resend for this browser's sign-up.
        resend={() => (started.phoneNumber === undefined ? resendSignUpCode() : startSignUp(form.getValues()))}
        onResent={begin}
        onChangeNumber={() => setStarted(null)}
        onSuccess={onSuccess}
      />
    );
  }
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

function SignUpCodeStep({
  step,
  resend,
  onResent,
  onChangeNumber,
  onSuccess,
}: {
  step: CodeStep;
  resend: () => Promise<SignUpStarted>;
  onResent: (answer: SignUpStarted) => void;
  onChangeNumber: () => void;
  onSuccess: () => void;
}) {
  const verify = useVerifySignUp();
  const input = useCodeField('signup-code');
  const [resending, setResending] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!input.check()) return;
    const result = await verify.mutateAsync({ ...(step.phoneNumber ? { phoneNumber: step.phoneNumber } : {}), code: input.code });
    if (result.ok) onSuccess();
    else input.fail(result.message || 'Something went wrong');
  };
  const onResend = async () => {
    setResending(true);
    try {
      onResent(await resend());
      input.clear();
    } catch (resendError) {
      toastError(errorText(resendError), 'Something went wrong');
    } finally {
      setResending(false);
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
      <p className="text-center text-sm" role="status">
        We texted a code to <strong className="whitespace-nowrap">{step.phoneLabel}</strong>
      </p>
      <SimulatedText text={step.simulatedText} />
      <CodeField {...input.field} />
      <Button type="submit" size="lg" className="w-full" busy={verify.isPending}>
        Verify and Sign Up
      </Button>
      <ResendButton until={step.resendAt} busy={resending} onResend={() => void onResend()} />
      <Button type="button" variant="link" className="h-auto justify-self-center py-1" onClick={onChangeNumber}>
        Change number
      </Button>
      <p className="text-xs text-muted-foreground">{NO_TEXT_HINT}</p>
      <p className="text-xs text-muted-foreground">{SAME_BROWSER_HINT}</p>
    </form>
  );
}
