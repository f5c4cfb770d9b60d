import { UsersRound } from 'lucide-react';
import { PageTitle } from '@/components/page-title';
import { Card, CardContent, CardHeader } from '@/components/ui/card';

/** /join/{code}: placeholder until the join form lands. */
export function JoinRoute() {
  return (
    <div className="flex flex-1 items-start justify-center px-4 py-8 sm:items-center sm:py-12">
      <PageTitle>Join a loop</PageTitle>
      <Card className="w-full max-w-md">
        <CardHeader className="items-center text-center">
          <div className="mb-2 flex size-12 items-center justify-center rounded-full bg-secondary">
            <UsersRound aria-hidden="true" className="size-6 text-secondary-foreground" />
          </div>
          <h1 className="text-2xl font-bold tracking-tight">Join a Loop</h1>
          <p className="text-muted-foreground">Enter your details to join the loop</p>
        </CardHeader>
        <CardContent>
          <p className="rounded-lg bg-muted p-4 text-center text-sm text-muted-foreground">
            Joining by invite link is almost ready. Please check back soon.
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
