import { useEffect, useState, type FormEvent } from 'react';
import { LIMITS } from '@loop/shared/constants';
import type { PasswordResetStarted } from '@loop/shared/auth';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { prepareProofOfWork } from '@/lib/proof-of-work';
import { requestPasswordReset, useResetPassword } from '../api/reset-password';
import { CodeField, codeError, NO_TEXT_HINT, ResendButton, resendTime, SAME_BROWSER_HINT, SimulatedText } from '@/components/code-step';

const loginError = (login: string) => (login.trim() === '' ? 'Enter your phone number or email' : undefined);
const passwordError = (password: string) =>
  password.length < LIMITS.passwordMin ? `Password must be at least ${LIMITS.passwordMin} characters` : undefined;

/**
 * "Forgot password?": the phone or email of the account, then the texted code and a new
 * password. The server answers alike whether or not an account exists, so this screen does too.
 */
export function ForgotPasswordForm({ onSuccess }: { onSuccess: () => void }) {
  const [login, setLogin] = useState('');
  const [started, setStarted] = useState<{ answer: PasswordResetStarted; resendAt: number } | null>(null);
  const [errors, setErrors] = useState<{ login?: string | undefined; code?: string | undefined; password?: string | undefined }>({});
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [asking, setAsking] = useState(false);
  const reset = useResetPassword();
  // The check against spam is solved while the person types (decision 0030).
  useEffect(prepareProofOfWork, []);

  const ask = async () => {
    setAsking(true);
    try {
      const answer = await requestPasswordReset(login.trim());
      setStarted({ answer, resendAt: resendTime(answer.resendAfterSeconds) });
      setCode('');
    } catch (error) {
      toastError(errorText(error), 'Something went wrong');
    } finally {
      setAsking(false);
    }
  };

  const onAsk = async (event: FormEvent) => {
    event.preventDefault();
    const problem = loginError(login);
    setErrors({ login: problem });
    if (problem) {
      document.getElementById('reset-login')?.focus();
      return;
    }
    await ask();
  };

  const onReset = async (event: FormEvent) => {
    event.preventDefault();
    const found = { code: codeError(code), password: passwordError(password) };
    setErrors(found);
    if (found.code || found.password) {
      document.getElementById(found.code ? 'reset-code' : 'reset-password')?.focus();
      return;
    }
    const result = await reset.mutateAsync({ login: login.trim(), code, password });
    if (result.ok) onSuccess();
    else toastError(result.message, 'Something went wrong');
  };

  if (!started) {
    return (
      <form onSubmit={(event) => void onAsk(event)} noValidate className="grid gap-4">
        <FormField
          id="reset-login"
          label="Phone number or email"
          hint="The phone with its country code (like +1 415 555 0100), or your account's email"
          error={errors.login}
        >
          {(aria) => (
            <Input
              {...aria}
              name="login"
              autoComplete="username"
              value={login}
              onChange={(event) => setLogin(event.target.value)}
              onBlur={() => setErrors({ login: loginError(login) })}
            />
          )}
        </FormField>
        <Button type="submit" size="lg" className="mt-2 w-full" busy={asking}>
          Text Me a Code
        </Button>
      </form>
    );
  }
  return (
    <form onSubmit={(event) => void onReset(event)} noValidate className="grid gap-4">
      <p className="text-sm" role="status">
        {started.answer.message}
      </p>
      <SimulatedText text={started.answer.simulatedText} />
      <CodeField id="reset-code" value={code} error={errors.code} onChange={setCode} />
      <FormField id="reset-password" label="New Password" hint={`At least ${LIMITS.passwordMin} characters`} error={errors.password}>
        {(aria) => (
          <Input
            {...aria}
            name="password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
      </FormField>
      <Button type="submit" size="lg" className="w-full" busy={reset.isPending}>
        Set New Password
      </Button>
      <ResendButton until={started.resendAt} busy={asking} onResend={() => void ask()} />
      <Button type="button" variant="link" className="h-auto justify-self-center py-1" onClick={() => setStarted(null)}>
        Use another phone or email
      </Button>
      <p className="text-xs text-muted-foreground">{NO_TEXT_HINT}</p>
      <p className="text-xs text-muted-foreground">{SAME_BROWSER_HINT}</p>
    </form>
  );
}
