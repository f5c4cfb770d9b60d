import { ArrowLeft, MessageSquare, Send } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { LIMITS } from '@loop/shared/constants';
import type { TextCost as TextCostFacts } from '@loop/shared/group-messages';
import { TextCost } from '@/components/text-cost';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Textarea } from '@/components/ui/textarea';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format-date';
import { usePreviewGroupMessage, useSendGroupMessage } from '../api/group-messages';

interface GroupMessageDialogProps {
  loopId: number;
  loopName: string;
  memberCount: number;
}

/** "2026-11-26T18:30" for a datetime-local field, in the browser's time. */
function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * "Send Group Message": one text to every member of the Loop, for its owner and for staff
 * (decision 0042). Two steps: write it (now, or at a time), then see the exact text, who gets it
 * and how many texts it costs, and confirm. Closing the dialog clears it.
 */
export function GroupMessageDialog({ loopId, loopName, memberCount }: GroupMessageDialogProps) {
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState('');
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [sendAt, setSendAt] = useState('');
  const [cost, setCost] = useState<TextCostFacts | null>(null);
  const preview = usePreviewGroupMessage(loopId);
  const send = useSendGroupMessage(loopId);
  const fieldId = useId();
  const timeId = useId();
  const blank = message.trim() === '';
  const later = when === 'later';
  const sendAtDate = later && sendAt ? new Date(sendAt) : null;

  function reset() {
    setMessage('');
    setWhen('now');
    setSendAt('');
    setCost(null);
  }

  function changeOpen(next: boolean) {
    if (send.isPending) return;
    setOpen(next);
    if (!next) reset();
  }

  function review(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // docs/product.md#input-rules: a message that is blank once trimmed sends nothing.
    const text = message.trim();
    if (!text || preview.isPending || (later && !sendAtDate)) return;
    preview.mutate(text, {
      onSuccess: setCost,
      onError: (error) => toastError(errorText(error), 'Failed to send messages'),
    });
  }

  function confirm() {
    send.mutate(
      { message: message.trim(), ...(sendAtDate ? { sendAt: sendAtDate.toISOString() } : {}) },
      {
        onSuccess: ({ queued, groupMessage }) => {
          toast(
            groupMessage.status === 'scheduled'
              ? { title: 'Group message scheduled', description: `It goes out ${formatDateTime(groupMessage.sendAt)}.` }
              : { title: 'Messages sent successfully!', description: `${queued} ${queued === 1 ? 'text is' : 'texts are'} on the way.` },
          );
          setOpen(false);
          reset();
        },
        onError: (error) => toastError(errorText(error), 'Failed to send messages'),
      },
    );
  }

  const sendLabel = cost
    ? sendAtDate
      ? 'Schedule it'
      : `Send to ${cost.recipients} ${cost.recipients === 1 ? 'person' : 'people'}`
    : 'Send';

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <MessageSquare aria-hidden="true" />
          Send Group Message
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90dvh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{cost ? 'Check and send' : 'Send Message to All Members'}</DialogTitle>
          <DialogDescription>
            {cost
              ? sendAtDate
                ? `This is what members will get on ${formatDateTime(sendAtDate)}, and what it costs.`
                : 'This is what members will get, and what it costs.'
              : `This message will be sent to all ${memberCount} members of ${loopName}.`}
          </DialogDescription>
        </DialogHeader>
        {cost ? (
          <div className="grid min-w-0 gap-5">
            <TextCost cost={cost} />
            <DialogFooter>
              <Button type="button" variant="outline" disabled={send.isPending} onClick={() => setCost(null)}>
                <ArrowLeft aria-hidden="true" />
                Edit
              </Button>
              <Button
                type="button"
                disabled={cost.recipients === 0}
                busy={send.isPending}
                icon={<Send aria-hidden="true" />}
                onClick={confirm}
              >
                {send.isPending ? 'Sending...' : sendLabel}
              </Button>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={review} className="grid min-w-0 gap-5">
            <div className="grid gap-2">
              <Label htmlFor={fieldId}>Message</Label>
              <Textarea
                id={fieldId}
                required
                rows={5}
                maxLength={LIMITS.message}
                value={message}
                onChange={(event) => setMessage(event.target.value)}
                placeholder="Type the text every member will get"
              />
              <p className="text-right text-xs text-muted-foreground tabular-nums">
                {message.length} / {LIMITS.message}
              </p>
            </div>
            <fieldset className="grid gap-3">
              <legend className="mb-2 text-sm font-medium">When</legend>
              <RadioGroup value={when} onValueChange={(value) => setWhen(value === 'later' ? 'later' : 'now')}>
                <Label className="flex items-center gap-2 font-normal">
                  <RadioGroupItem value="now" />
                  Now
                </Label>
                <Label className="flex items-center gap-2 font-normal">
                  <RadioGroupItem value="later" />
                  Later
                </Label>
              </RadioGroup>
              {later && (
                <div className="grid gap-2">
                  <Label htmlFor={timeId}>Send at (your time)</Label>
                  <Input
                    id={timeId}
                    type="datetime-local"
                    required
                    min={localInputValue(new Date())}
                    value={sendAt}
                    onChange={(event) => setSendAt(event.target.value)}
                  />
                  <p className="text-xs text-muted-foreground">Texts that would reach someone in their quiet hours wait until morning.</p>
                </div>
              )}
            </fieldset>
            <DialogFooter>
              <Button type="button" variant="outline" disabled={preview.isPending} onClick={() => changeOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={blank || (later && !sendAtDate)} busy={preview.isPending}>
                Review...
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
