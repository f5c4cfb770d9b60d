import { CalendarClock, MessagesSquare } from 'lucide-react';
import type { GroupMessageSummary } from '@loop/shared/group-messages';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { CardSpinner } from '@/components/ui/spinner';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format-date';
import { useCancelGroupMessage, useGroupMessages } from '../api/group-messages';
import { GroupMessageDialog } from './group-message-dialog';

/**
 * The owner's group messages on the Loop page (decision 0042): send one, and see the past and
 * scheduled ones with their delivery; a scheduled one can be cancelled before it goes.
 */
export function GroupMessagesCard({ loop }: { loop: { id: number; name: string; memberCount: number } }) {
  const list = useGroupMessages(loop.id);
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle>Group messages</CardTitle>
        <GroupMessageDialog loopId={loop.id} loopName={loop.name} memberCount={loop.memberCount} />
      </CardHeader>
      <CardContent>
        {list.isPending ? (
          <CardSpinner />
        ) : list.isError ? (
          <p className="rounded-lg bg-muted p-4 text-muted-foreground">{errorText(list.error) || 'Group messages could not be loaded.'}</p>
        ) : list.data.length === 0 ? (
          <p className="flex items-center gap-2 rounded-lg bg-muted p-4 text-muted-foreground">
            <MessagesSquare aria-hidden="true" className="size-5 shrink-0" />
            No group messages yet. One text reaches every member who said YES.
          </p>
        ) : (
          <ul className="divide-y rounded-xl border">
            {list.data.map((item) => (
              <GroupMessageItem key={item.id} loopId={loop.id} item={item} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function GroupMessageItem({ loopId, item }: { loopId: number; item: GroupMessageSummary }) {
  const cancel = useCancelGroupMessage(loopId);
  const { delivery } = item;
  return (
    <li className="grid gap-1 p-3">
      <p className="break-words whitespace-pre-wrap">{item.message}</p>
      <p className="text-sm text-muted-foreground">
        From {item.senderName} ·{' '}
        {item.status === 'scheduled' ? (
          <span className="inline-flex items-center gap-1 font-medium text-foreground">
            <CalendarClock aria-hidden="true" className="size-3.5" />
            Goes out {formatDateTime(item.sendAt)}
          </span>
        ) : item.status === 'cancelled' ? (
          'Cancelled'
        ) : (
          `Sent ${formatDateTime(item.sentAt ?? item.sendAt)}`
        )}
      </p>
      {item.status === 'sent' && (
        <p className="text-sm tabular-nums" data-testid="delivery">
          {item.textsQueued} {item.textsQueued === 1 ? 'text' : 'texts'}: {delivery.delivered} delivered, {delivery.sent} sent,{' '}
          {delivery.waiting} waiting, {delivery.failed} failed
        </p>
      )}
      {item.status === 'scheduled' && (
        <Button
          variant="outline"
          size="sm"
          className="justify-self-start"
          busy={cancel.isPending}
          onClick={() =>
            cancel.mutate(item.id, {
              onSuccess: () => toast({ title: 'Group message cancelled', description: 'Nobody will get it.' }),
              onError: (error) => toastError(errorText(error), 'Failed to cancel the group message'),
            })
          }
        >
          Cancel this message
        </Button>
      )}
    </li>
  );
}
