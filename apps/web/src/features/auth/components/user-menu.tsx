import { LogOut, Mail, ShieldCheck, Smartphone, UserRound } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import type { User } from '@loop/shared/auth';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { toastError } from '@/components/ui/use-toast';
import { useIsMailSimulated, useIsSimulatorMode } from '@/lib/app-config';
import { isStaff } from '@/lib/current-user';
import { useLogout } from '../api/logout';

/** The top bar's account menu: Profile, Phone Simulator (simulator mode or staff), Mail Simulator (the same, while e-mail is simulated), Admin (staff only) and Log out. */
export function UserMenu({ user }: { user: User }) {
  const logout = useLogout();
  const navigate = useNavigate();
  const simulatorMode = useIsSimulatorMode();
  const mailSimulated = useIsMailSimulated();

  async function handleLogout() {
    const result = await logout.mutateAsync();
    if (!result.ok) {
      toastError(result.message, 'Failed to logout');
      return;
    }
    await navigate('/');
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="icon" className="rounded-full" aria-label="Account menu">
          <UserRound aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64 max-w-[calc(100vw-2rem)]">
        <DropdownMenuLabel>
          <span className="block truncate font-semibold">
            {user.firstName} {user.lastName}
          </span>
          {user.email && <span className="block truncate text-muted-foreground">{user.email}</span>}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/profile">
            <UserRound aria-hidden="true" />
            Profile
          </Link>
        </DropdownMenuItem>
        {(simulatorMode || isStaff(user)) && (
          <DropdownMenuItem asChild>
            <Link to="/simulator">
              <Smartphone aria-hidden="true" />
              Phone Simulator
            </Link>
          </DropdownMenuItem>
        )}
        {(simulatorMode || isStaff(user)) && mailSimulated && (
          <DropdownMenuItem asChild>
            <Link to="/simulator/mail">
              <Mail aria-hidden="true" />
              Mail Simulator
            </Link>
          </DropdownMenuItem>
        )}
        {isStaff(user) && (
          <DropdownMenuItem asChild>
            <Link to="/admin">
              <ShieldCheck aria-hidden="true" />
              Admin
            </Link>
          </DropdownMenuItem>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem disabled={logout.isPending} onSelect={() => void handleLogout()}>
          <LogOut aria-hidden="true" />
          Log out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
