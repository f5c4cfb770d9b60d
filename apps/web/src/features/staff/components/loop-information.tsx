import type { ReactNode } from 'react';
import type { AdminLoopDetail } from '@loop/shared/admin';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format-date';
import { frequencyLabel } from '../lib/frequency-label';

/** Loop Information: frequency, admin, vibe and context, plus status and age. */
export function LoopInformation({ loop }: { loop: AdminLoopDetail }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Loop Information</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-4">
          <Item label="Frequency">{frequencyLabel(loop.frequency)}</Item>
          <Item label="Status">{loop.paused ? 'Paused' : 'Active'}</Item>
          <Item label="Admin" wide="phone">
            {loop.creator.firstName} {loop.creator.lastName}
            {loop.creator.email && <span className="block text-sm break-all text-muted-foreground">{loop.creator.email}</span>}
          </Item>
          <Item label="Created">{formatDate(loop.createdAt)}</Item>
          <Item label="Vibe">{loop.vibe.join(', ')}</Item>
          {loop.context && (
            <Item label="Context" wide>
              <span className="whitespace-pre-wrap">{loop.context}</span>
            </Item>
          )}
        </dl>
      </CardContent>
    </Card>
  );
}

/** `wide`: the whole row; "phone": the whole row on narrow screens only. */
function Item({ label, wide = false, children }: { label: string; wide?: boolean | 'phone'; children: ReactNode }) {
  return (
    <div className={cn('grid content-start gap-1', wide === true && 'col-span-2', wide === 'phone' && 'col-span-2 sm:col-span-1')}>
      <dt className="text-sm font-medium text-muted-foreground">{label}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}
