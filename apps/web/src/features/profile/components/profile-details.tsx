import type { User } from '@loop/shared/auth';
import { formatPhoneNumber } from '@/lib/phone-format';

/** Name, email and phone number, read-only. */
export function ProfileDetails({ user }: { user: User }) {
  const rows = [
    { label: 'Name', value: `${user.firstName} ${user.lastName}` },
    { label: 'Email', value: user.email ?? 'Not provided' },
    { label: 'Phone Number', value: formatPhoneNumber(user.phoneNumber) },
  ];
  return (
    <dl className="grid gap-4 sm:grid-cols-[10rem_1fr] sm:gap-x-6">
      {rows.map((row) => (
        <div key={row.label} className="grid gap-1 sm:col-span-2 sm:grid-cols-subgrid">
          <dt className="text-sm font-medium text-muted-foreground">{row.label}</dt>
          <dd className="break-words text-base">{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}
