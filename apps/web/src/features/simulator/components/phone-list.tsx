import { Search } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { SimulatorPhone } from '@loop/shared/simulator';
import { Card, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { formatPhoneNumber } from '@/lib/phone-format';
import { listItemLinkClass } from '../lib/list-item-link';
import { MemberAvatar } from './member-avatar';

// A short list needs no search box.
const SEARCH_FROM = 6;

/** Link to a member's phone: the choice lives in the address, so Back returns to the list on a phone. */
export function phoneHref(phoneNumber: string): string {
  return `/simulator?phone=${encodeURIComponent(phoneNumber)}`;
}

/** Whether a member matches a search by name, number or Loop. */
export function matchesSearch(phone: SimulatorPhone, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === '') return true;
  const digits = q.replace(/\D/g, '');
  return (
    `${phone.firstName} ${phone.lastName}`.toLowerCase().includes(q) ||
    phone.loops.some((loop) => loop.name.toLowerCase().includes(q)) ||
    (digits.length >= 3 && phone.phoneNumber.includes(digits))
  );
}

/** The members whose phones can be played, with their Loops. */
export function PhoneList({ phones, selected, className }: { phones: SimulatorPhone[]; selected: string | null; className?: string }) {
  const [query, setQuery] = useState('');
  const shown = phones.filter((phone) => matchesSearch(phone, query));
  return (
    <Card className={cn('flex flex-col overflow-hidden', className)}>
      <CardHeader className="gap-3 pb-3 sm:pb-3">
        <CardTitle className="flex items-baseline justify-between gap-2 text-base">
          Members
          <span className="text-sm font-normal text-muted-foreground">{phones.length}</span>
        </CardTitle>
        {phones.length >= SEARCH_FROM && (
          <div className="relative">
            <Search
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            />
            <Input
              type="search"
              aria-label="Search members"
              placeholder="Search by name, number or Loop"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              className="pl-9"
            />
          </div>
        )}
      </CardHeader>
      {shown.length === 0 ? (
        <p className="px-5 pb-5 text-sm text-muted-foreground">No member matches “{query.trim()}”.</p>
      ) : (
        <ul className="grid gap-1 overflow-y-auto px-2 pb-2">
          {shown.map((phone) => {
            const current = phone.phoneNumber === selected;
            return (
              <li key={phone.userId}>
                <Link
                  to={phoneHref(phone.phoneNumber)}
                  aria-current={current ? 'page' : undefined}
                  className={listItemLinkClass(current, 'flex items-center gap-3')}
                >
                  <MemberAvatar firstName={phone.firstName} lastName={phone.lastName} className={cn(current && 'bg-card')} />
                  <span className="grid min-w-0 flex-1 gap-0.5">
                    <span className="truncate font-semibold">
                      {phone.firstName} {phone.lastName}
                    </span>
                    <span className="flex items-center gap-2 text-xs text-muted-foreground">
                      <span className="truncate">
                        {formatPhoneNumber(phone.phoneNumber)}
                        {phone.messagingPreference === 'whatsapp' && ' · WhatsApp'}
                      </span>
                      {phone.optedOut && (
                        <span className="shrink-0 rounded-full bg-destructive/10 px-2 py-px text-[11px] font-semibold text-destructive">
                          Opted out
                        </span>
                      )}
                    </span>
                    <span className="truncate text-xs text-muted-foreground">{phone.loops.map((loop) => loop.name).join(', ')}</span>
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
