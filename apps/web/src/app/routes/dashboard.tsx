import { Check, Sparkles } from 'lucide-react';
import { Page } from '@/components/page';
import { PageTitle } from '@/components/page-title';
import { Card } from '@/components/ui/card';
import { useSignedInUser } from '@/lib/current-user';

/** My Loops (signed-in "/"): placeholder until the Loop list lands. */
export function DashboardRoute() {
  const user = useSignedInUser();
  return (
    <Page>
      <PageTitle>My Loops</PageTitle>
      <div className="grid gap-1">
        <h1 className="text-3xl font-bold tracking-tight">My Loops</h1>
        <p className="text-muted-foreground">Hi {user.firstName}! Your loops will show here.</p>
      </div>
      <Card className="flex flex-col items-center gap-4 border-dashed px-6 py-12 text-center">
        <div className="flex size-14 items-center justify-center rounded-full bg-secondary">
          <Sparkles aria-hidden="true" className="size-7 text-secondary-foreground" />
        </div>
        <h2 className="text-xl font-semibold">Create Your First Loop</h2>
        <ul className="grid gap-2 text-left text-muted-foreground">
          {['Share updates via SMS', 'Connect with your group'].map((text) => (
            <li key={text} className="flex items-center gap-2">
              <Check aria-hidden="true" className="size-4 text-primary" />
              {text}
            </li>
          ))}
        </ul>
        <p className="text-sm text-muted-foreground">Creating loops is coming very soon.</p>
      </Card>
    </Page>
  );
}
