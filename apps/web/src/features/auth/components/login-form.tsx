import { useState, type FormEvent } from 'react';
import type { SignInCodeNeeded } from '@loop/shared/auth';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toastError } from '@/components/ui/use-toast';
import { useLogin } from '../api/login';
import { CodeField, NO_TEXT_HINT, ResendButton, resendTime, SimulatedText, useCodeField } from '@/components/code-step';

type Field = 'email' | 'password';

// Two fields do not need zod and react-hook-form: without them the sign-in page's first download
// stays under 150 KB. The messages are loginSchema's; the server checks the same again.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
function check(field: Field, value: string): string | undefined {
  if (field === 'password') return value === '' ? 'Password is required' : undefined;
  const email = value.trim();
  if (email === '') return 'Email is required';
  return EMAIL.test(email) ? undefined : 'Email must be a valid email address';
}

export function LoginForm({ onSuccess, onForgotPassword }: { onSuccess: () => void; onForgotPassword: () => void }) {
  const login = useLogin();
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  // After many failed log-ins from elsewhere, the server asks for a code texted to the account's phone.
  const [codeNeeded, setCodeNeeded] = useState<{ answer: SignInCodeNeeded; resendAt: number } | null>(null);
  const busy = login.isPending;

  const control = (field: Field) => ({
    name: field,
    value: values[field],
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setValues((v) => ({ ...v, [field]: value }));
      // Once shown, an error follows the typing (as react-hook-form's onBlur mode does).
      if (errors[field]) setErrors((e) => ({ ...e, [field]: check(field, value) }));
    },
    onBlur: () => setErrors((e) => ({ ...e, [field]: check(field, values[field]) })),
  });

  const send = async (code?: string) => {
    const result = await login.mutateAsync({
      email: values.email.trim().toLowerCase(),
      password: values.password,
      ...(code ? { code } : {}),
    });
    if (result.ok) onSuccess();
    else if ('codeNeeded' in result)
      setCodeNeeded({ answer: result.codeNeeded, resendAt: resendTime(result.codeNeeded.resendAfterSeconds) });
    else toastError(result.message, 'Something went wrong');
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = { email: check('email', values.email), password: check('password', values.password) };
    setErrors(found);
    if (found.email || found.password) {
      document.getElementById(found.email ? 'login-email' : 'login-password')?.focus();
      return;
    }
    await send();
  };

  if (codeNeeded) {
    return (
      <LoginCodeStep
        answer={codeNeeded.answer}
        resendAt={codeNeeded.resendAt}
        busy={busy}
        onCode={(code) => send(code)}
        onResend={() => send()}
        onCancel={() => setCodeNeeded(null)}
      />
    );
  }
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
      <FormField id="login-email" label="Email" error={errors.email}>
        {(aria) => <Input {...aria} type="email" autoComplete="email" {...control('email')} />}
      </FormField>
      <FormField id="login-password" label="Password" error={errors.password}>
        {(aria) => <Input {...aria} type="password" autoComplete="current-password" {...control('password')} />}
      </FormField>
      <Button type="button" variant="link" className="-mt-2 h-auto justify-self-end p-0 text-sm" onClick={onForgotPassword}>
        Forgot password?
      </Button>
      <Button type="submit" size="lg" className="mt-2 w-full" busy={busy}>
        Login
      </Button>
    </form>
  );
}

/** The second step of a log-in the server guards with a texted code (decision 0028). */
function LoginCodeStep({
  answer,
  resendAt,
  busy,
  onCode,
  onResend,
  onCancel,
}: {
  answer: SignInCodeNeeded;
  resendAt: number;
  busy: boolean;
  onCode: (code: string) => Promise<void>;
  onResend: () => Promise<void>;
  onCancel: () => void;
}) {
  const input = useCodeField('login-code');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (input.check()) await onCode(input.code);
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
      <p className="text-sm" role="status">
        {answer.message}
      </p>
      <SimulatedText text={answer.simulatedText} />
      <CodeField {...input.field} />
      <Button type="submit" size="lg" className="w-full" busy={busy}>
        Verify and Log In
      </Button>
      <ResendButton
        until={resendAt}
        busy={busy}
        onResend={() => {
          input.clear();
          void onResend();
        }}
      />
      <Button type="button" variant="link" className="h-auto justify-self-center py-1" onClick={onCancel}>
        Use another account
      </Button>
      <p className="text-xs text-muted-foreground">{NO_TEXT_HINT}</p>
    </form>
  );
}
