import { ChevronLeft, FlaskConical } from 'lucide-react';
import { Link } from 'react-router';
import type { SimulatorPhone } from '@loop/shared/simulator';
import { formatPhoneNumber } from '@/lib/phone-format';
import { MemberAvatar } from './member-avatar';

/** The top of the simulated phone: whose phone it is, and that nothing really leaves. */
export function PhoneHeader({ phone }: { phone: SimulatorPhone }) {
  return (
    <header className="grid grid-cols-1 gap-2 border-b bg-card px-3 pt-2.5 pb-2">
      <div className="flex items-center gap-2.5">
        <Link
          to="/simulator"
          aria-label="All members"
          className="-ml-1 flex size-10 shrink-0 items-center justify-center rounded-full text-muted-foreground outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring md:hidden"
        >
          <ChevronLeft aria-hidden="true" className="size-6" />
        </Link>
        <MemberAvatar firstName={phone.firstName} lastName={phone.lastName} />
        <div className="min-w-0">
          <h2 className="truncate leading-tight font-semibold">
            {phone.firstName} {phone.lastName}
          </h2>
          <p className="truncate text-xs text-muted-foreground">
            {formatPhoneNumber(phone.phoneNumber)} · texting Loop by {phone.messagingPreference === 'whatsapp' ? 'WhatsApp' : 'SMS'}
          </p>
        </div>
      </div>
      <p className="flex items-center justify-center gap-1.5 rounded-full bg-secondary px-3 py-1 text-center text-xs font-medium text-secondary-foreground">
        <FlaskConical aria-hidden="true" className="size-3.5 shrink-0" />
        Simulated phone — nothing is really sent
      </p>
    </header>
  );
}
