import { lazy, Suspense, useState } from 'react';
import type { PendingSignUp } from '@loop/shared/auth';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { LoginForm } from './login-form';
import { Spinner } from '@/components/ui/spinner';
import { usePendingSignUp } from '../api/register';

// Sign Up brings the phone picker and its country data: loaded when asked for, so Login stays light.
const SignUpForm = lazy(async () => ({ default: (await import('./sign-up-form')).SignUpForm }));
const ForgotPasswordForm = lazy(async () => ({ default: (await import('./forgot-password-form')).ForgotPasswordForm }));

export type AuthMode = 'login' | 'signup' | 'reset';

const COPY = {
  login: {
    title: 'Welcome back',
    description: 'Log in to see your loops and the latest from your group.',
    toggle: "Don't have an account? Sign up",
  },
  signup: {
    title: 'Create your account',
    description: 'Start collecting updates from your group. It’s free.',
    toggle: 'Already have an account? Login',
  },
  reset: {
    title: 'Set a new password',
    description: 'We text a code to the phone of your account.',
    toggle: 'Back to Login',
  },
} as const;

/**
 * One card that toggles between Login and Sign Up (docs/product.md#sign-in-and-sign-up). A sign-up
 * this browser started before a reload opens again at its code step.
 */
export function AuthCard({ initialMode = 'login', onSuccess }: { initialMode?: AuthMode; onSuccess: () => void }) {
  const pending = usePendingSignUp();
  if (pending.isPending) return <Loading />;
  // Could not tell (offline): the card as if none waits; the form's own answer says what to do.
  const resume = pending.data?.signUp ?? null;
  return <AuthCardModes initialMode={resume ? 'signup' : initialMode} resume={resume} onSuccess={onSuccess} />;
}

function Loading() {
  return (
    <div className="flex justify-center py-16">
      <Spinner />
    </div>
  );
}

function AuthCardModes({
  initialMode,
  resume,
  onSuccess,
}: {
  initialMode: AuthMode;
  resume: PendingSignUp['signUp'];
  onSuccess: () => void;
}) {
  const [mode, setMode] = useState<AuthMode>(initialMode);
  const copy = COPY[mode];
  return (
    <Card className="w-full max-w-md">
      <CardHeader className="text-center">
        <h1 className="text-2xl font-bold tracking-tight">{copy.title}</h1>
        <p className="text-sm text-muted-foreground">{copy.description}</p>
      </CardHeader>
      <CardContent className="grid gap-4">
        {mode === 'login' ? (
          <LoginForm onSuccess={onSuccess} onForgotPassword={() => setMode('reset')} />
        ) : (
          <Suspense fallback={<Loading />}>
            {mode === 'signup' ? <SignUpForm onSuccess={onSuccess} resume={resume} /> : <ForgotPasswordForm onSuccess={onSuccess} />}
          </Suspense>
        )}
        <Button
          variant="link"
          className="h-auto justify-self-center whitespace-normal py-1"
          onClick={() => setMode(mode === 'login' ? 'signup' : 'login')}
        >
          {copy.toggle}
        </Button>
      </CardContent>
    </Card>
  );
}
