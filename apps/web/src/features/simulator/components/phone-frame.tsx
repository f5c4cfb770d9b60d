import { SearchX, Smartphone } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '@/lib/cn';

/**
 * A phone's outline on larger screens; on a phone, the whole screen under the top bar
 * (4rem and its 1px border), so the texts scroll and the compose box stays at the bottom.
 */
export function PhoneFrame({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div
      className={cn(
        'h-[calc(100dvh-4rem-1px)] overflow-hidden bg-card md:mx-auto md:h-[min(780px,max(540px,calc(100dvh-15rem)))] md:max-w-[400px] md:rounded-[2.25rem] md:border-[7px] md:border-foreground md:shadow-xl',
        className,
      )}
    >
      {children}
    </div>
  );
}

/** The phone before a member is chosen (wide screens only: on a phone the list shows instead). */
export function PickAMember() {
  return (
    <div className="flex h-full flex-col items-center justify-center gap-3 bg-muted/50 px-8 text-center">
      <Smartphone aria-hidden="true" className="size-10 text-muted-foreground" />
      <p className="font-semibold">Pick a member</p>
      <p className="text-sm text-muted-foreground">Choose someone from the list to see their phone and text Loop as them.</p>
    </div>
  );
}

/** An address naming a phone that is not among the viewer's members. */
export function UnknownPhone() {
  return (
    <div role="alert" className="flex h-full flex-col items-center justify-center gap-3 bg-muted/50 px-8 text-center">
      <SearchX aria-hidden="true" className="size-10 text-muted-foreground" />
      <p className="font-semibold">Not one of your members</p>
      <p className="text-sm text-muted-foreground">No member of your Loops has this phone number.</p>
      <Link to="/simulator" className="text-sm font-semibold text-primary underline-offset-4 hover:underline">
        Show all members
      </Link>
    </div>
  );
}
