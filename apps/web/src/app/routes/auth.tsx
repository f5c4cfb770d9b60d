import { useLocation, useNavigate } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { dismissToast } from '@/components/ui/use-toast';
import { AuthCard, type AuthMode } from '@/features/auth/components/auth-card';

function initialMode(state: unknown): AuthMode {
  return state && typeof state === 'object' && 'mode' in state && state.mode === 'signup' ? 'signup' : 'login';
}

/** /auth: login or sign-up; success goes to "/", with no toast left from the tries before it. */
export function AuthRoute() {
  const navigate = useNavigate();
  // "Get Started" links open the card on Sign Up; the address stays /auth.
  const { state } = useLocation();
  return (
    <div className="flex flex-1 items-start justify-center px-4 py-8 sm:items-center sm:py-12">
      <PageTitle>Sign in</PageTitle>
      <AuthCard
        initialMode={initialMode(state)}
        onSuccess={() => {
          // A red "That code is not right" from a try before must not follow the person to My Loops.
          dismissToast();
          void navigate('/', { replace: true });
        }}
      />
    </div>
  );
}
