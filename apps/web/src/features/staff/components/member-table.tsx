import type { LoopMember } from '@loop/shared/loops';
import { MemberStateBadge, memberStateDetail } from '@/components/member-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatPhoneNumber } from '@/lib/phone-format';

interface MemberTableProps {
  members: LoopMember[];
  /** The Loop's memberCount: a large Loop's detail carries only its first members. */
  total: number;
  onShowAll: () => void;
  loadingAll: boolean;
}

/** Members: who gets the Loop's texts, with a dash for what they did not give. */
export function MemberTable({ members, total, onShowAll, loadingAll }: MemberTableProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Members ({Math.max(total, members.length).toLocaleString()})</CardTitle>
        {members.length < total && (
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <p className="text-sm text-muted-foreground">Showing the first {members.length.toLocaleString()}.</p>
            <Button variant="outline" size="sm" busy={loadingAll} onClick={onShowAll}>
              Show all {total.toLocaleString()}
            </Button>
          </div>
        )}
      </CardHeader>
      <CardContent>
        {members.length === 0 ? (
          <p className="rounded-lg bg-muted p-4 text-muted-foreground">No members yet.</p>
        ) : (
          <>
            {/* Phones: a card per member, every field in view; a 720 px table in a 300 px box hid three columns. */}
            <ul className="grid gap-3 md:hidden">
              {members.map((member) => (
                <li key={member.id} className="grid gap-1.5 rounded-xl border p-3 text-sm">
                  <p className="font-medium break-words">
                    <MemberName member={member} />
                  </p>
                  {member.user.email && <p className="break-words">{member.user.email}</p>}
                  <p>
                    <MemberPhone member={member} />
                  </p>
                  {member.context && <p className="break-words text-muted-foreground">{member.context}</p>}
                  <MemberState member={member} />
                </li>
              ))}
            </ul>
            <Table className="min-w-[720px]" containerClassName="hidden rounded-xl border md:block">
              <TableHeader>
                <TableRow className="bg-muted/50">
                  <TableHead>Name</TableHead>
                  <TableHead>Email</TableHead>
                  <TableHead>Phone</TableHead>
                  <TableHead>Context</TableHead>
                  <TableHead>State</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {members.map((member) => (
                  <TableRow key={member.id}>
                    <TableCell className="font-medium whitespace-nowrap">
                      <MemberName member={member} />
                    </TableCell>
                    <TableCell className="whitespace-nowrap">{member.user.email || '-'}</TableCell>
                    <TableCell className="whitespace-nowrap">
                      <MemberPhone member={member} />
                    </TableCell>
                    <TableCell className="max-w-72 break-words text-muted-foreground">{member.context || '-'}</TableCell>
                    <TableCell className="max-w-64">
                      <MemberState member={member} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function MemberName({ member }: { member: LoopMember }) {
  return (
    <>
      {member.user.firstName} {member.user.lastName}
      {member.isCreator && <span className="ml-2 rounded-full bg-secondary px-2 py-0.5 text-xs text-secondary-foreground">Creator</span>}
    </>
  );
}

function MemberPhone({ member }: { member: LoopMember }) {
  // Staff always get the number; null is only ever a plain member's view of someone else.
  if (member.user.phoneNumber === null) return '-';
  return (
    <a href={`tel:${member.user.phoneNumber}`} className="tabular-nums hover:underline">
      {formatPhoneNumber(member.user.phoneNumber)}
    </a>
  );
}

function MemberState({ member }: { member: LoopMember }) {
  const detail = memberStateDetail(member);
  return (
    <div className="text-xs break-words text-muted-foreground">
      <MemberStateBadge member={member} />
      {detail && <p className="mt-1">{detail}</p>}
    </div>
  );
}
