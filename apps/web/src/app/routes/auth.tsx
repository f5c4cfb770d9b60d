import { useLocation, useNavigate } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { AuthCard, type AuthMode } from '@/features/auth/components/auth-card';

function initialMode(state: unknown): AuthMode {
  return state && typeof state === 'object' && 'mode' in state && state.mode === 'signup' ? 'signup' : 'login';
}

/** /auth: login or sign-up; success goes to "/". */
export function AuthRoute() {
  const navigate = useNavigate();
  // "Get Started" links open the card on Sign Up; the address stays /auth.
  const { state } = useLocation();
  return (
    <div className="flex flex-1 items-start justify-center px-4 py-8 sm:items-center sm:py-12">
      <PageTitle>Sign in</PageTitle>
      <AuthCard initialMode={initialMode(state)} onSuccess={() => void navigate('/', { replace: true })} />
    </div>
  );
}
