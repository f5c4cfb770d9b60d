import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { createContext, use } from 'react';
import { SIGNED_IN_HINT_COOKIE, type User } from '@loop/shared/auth';
import { api, ApiError } from './api-client';

// The session is app-wide: the shell, every signed-in feature and the auth forms read it.
export const currentUserQueryKey = ['current-user'] as const;

/** Whether the browser holds a session cookie, by its readable hint (SIGNED_IN_HINT_COOKIE). */
function mayBeSignedIn(): boolean {
  return document.cookie.split(';').some((c) => c.trim().startsWith(`${SIGNED_IN_HINT_COOKIE}=`));
}

/**
 * GET /api/user: the signed-in user, or null when signed out (401). Without the session's hint
 * cookie nobody is signed in: nothing is asked, so a signed-out page logs no 401 in the console.
 */
export async function getCurrentUser(): Promise<User | null> {
  if (!mayBeSignedIn()) return null;
  try {
    return await api.get<User>('/api/user');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/**
 * docs/product.md#limits-and-timings: the user query is never cached: it is read afresh on every page load and dropped
 * as soon as nothing shows it. The layout, guards and pages that read it while the page is up
 * share that one answer (a second GET per load was a second 401 in a signed-out console);
 * login, register, logout and profile changes read it again through `refreshCurrentUser`.
 */
export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: currentUserQueryKey,
    queryFn: getCurrentUser,
    staleTime: 0,
    gcTime: 0,
    refetchOnMount: false,
  });
}

export function useCurrentUser() {
  return useQuery(currentUserQueryOptions());
}

/** The signed-in user, provided by the router's guards to the pages they let through. */
export const SignedInUserContext = createContext<User | null>(null);

/** The user on a page only signed-in users reach. */
export function useSignedInUser(): User {
  const user = use(SignedInUserContext);
  if (!user) throw new Error('useSignedInUser() is for pages behind the signed-in guard');
  return user;
}

/**
 * After login, register or logout: drop everything read as the previous person and read the
 * session again. Resolves when the user query has its new answer.
 */
export async function refreshCurrentUser(queryClient: QueryClient): Promise<void> {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== currentUserQueryKey[0] });
  await queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
}

/**
 * Whether the user is staff (docs/product.md#glossary). The wire calls it `isPrivileged`, as the
 * specification does; the web app reads that field here only.
 */
export function isStaff(user: Pick<User, 'isPrivileged'> | null | undefined): boolean {
  return user?.isPrivileged === true;
}
