import { BellOff, RefreshCw } from 'lucide-react';
import { useRef, useState } from 'react';
import type { SimulatorPhone } from '@loop/shared/simulator';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorText } from '@/lib/api-client';
import { isThreadBusy, usePhoneThread } from '../api/get-phone-thread';
import { ComposeBox } from './compose-box';
import { EmptyThread, isPending, SuggestionButtons } from './empty-thread';
import { MessageThread } from './message-thread';
import { PhoneHeader } from './phone-header';

/** One member's simulated phone: their texts with Loop, kept fresh, and a box to text from. */
export function PhoneView({ phone: listed }: { phone: SimulatorPhone }) {
  const thread = usePhoneThread(listed.phoneNumber);
  const [draft, setDraft] = useState('');
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const phone = thread.data?.phone ?? listed;
  // Loop's welcome text usually comes first: until the member has texted, offer what to try.
  const neverTexted = thread.data !== undefined && !thread.data.messages.some((message) => message.direction === 'inbound');
  // Invited and not yet in: YES is on offer until they answer (what they text meanwhile waits for it).
  const pending = isPending(phone);

  function suggest(text: string) {
    setDraft(text);
    textareaRef.current?.focus();
  }

  return (
    <div className="flex h-full min-h-0 flex-col bg-card">
      <PhoneHeader phone={phone} />
      {phone.optedOut && (
        <p role="status" className="flex items-start gap-2 border-b bg-destructive/10 px-4 py-2 text-xs text-destructive">
          <BellOff aria-hidden="true" className="mt-px size-4 shrink-0" />
          <span>
            <strong className="font-semibold">Opted out.</strong> This phone texted STOP, so Loop sends it nothing until its holder texts
            START.
          </span>
        </p>
      )}
      <div className="min-h-0 flex-1 bg-muted/50">
        {thread.isPending ? (
          <div className="flex h-full items-center justify-center">
            <Spinner label="Loading texts" />
          </div>
        ) : thread.isError ? (
          <div role="alert" className="flex h-full flex-col items-center justify-center gap-3 px-6 text-center">
            <p className="font-semibold">Failed to load the texts</p>
            <p className="text-sm text-muted-foreground">{errorText(thread.error)}</p>
            <Button variant="outline" onClick={() => void thread.refetch()}>
              <RefreshCw aria-hidden="true" />
              Try again
            </Button>
          </div>
        ) : thread.data.messages.length === 0 ? (
          <EmptyThread phone={phone} onSuggest={suggest} />
        ) : (
          <MessageThread messages={thread.data.messages} firstName={phone.firstName} replying={isThreadBusy(thread.data)} />
        )}
      </div>
      {(neverTexted || pending) && thread.data !== undefined && thread.data.messages.length > 0 && (
        <div className="flex items-center gap-2 overflow-x-auto bg-muted/50 px-3 pt-1 pb-2.5 text-xs text-muted-foreground">
          <span className="shrink-0">{pending ? 'Invited, not in yet. Try' : 'Try texting'}</span>
          <SuggestionButtons onSuggest={suggest} pending={pending} className="flex-nowrap" />
        </div>
      )}
      <ComposeBox
        phoneNumber={phone.phoneNumber}
        whatsapp={phone.messagingPreference === 'whatsapp'}
        firstName={phone.firstName}
        draft={draft}
        onDraftChange={setDraft}
        textareaRef={textareaRef}
      />
    </div>
  );
}
