import { lazy, Suspense, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { LoginForm } from './login-form';
import { Spinner } from '@/components/ui/spinner';

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

/** One card that toggles between Login and Sign Up (docs/product.md#sign-in-and-sign-up). */
export function AuthCard({ initialMode = 'login', onSuccess }: { initialMode?: AuthMode; onSuccess: () => void }) {
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
          <Suspense
            fallback={
              <div className="flex justify-center py-16">
                <Spinner />
              </div>
            }
          >
            {mode === 'signup' ? <SignUpForm onSuccess={onSuccess} /> : <ForgotPasswordForm onSuccess={onSuccess} />}
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
