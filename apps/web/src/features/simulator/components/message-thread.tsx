import { useEffect, useRef } from 'react';
import type { SimulatorMessage } from '@loop/shared/simulator';
import { formatDate } from '@/lib/format-date';
import { MessageBubble } from './message-bubble';

interface MessageThreadProps {
  messages: SimulatorMessage[];
  firstName: string;
  /** Loop is still working on a text: show that a reply is coming. */
  replying: boolean;
}

// Within this many pixels of the end counts as "reading the latest": new texts keep it in view.
const STICK_DISTANCE = 64;

/** The conversation, oldest first, with a line for each day; it stays at the end as texts arrive. */
export function MessageThread({ messages, firstName, replying }: MessageThreadProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  const last = messages.at(-1);

  // Photos load and texts arrive after the first paint: follow the end while the reader is there.
  useEffect(() => {
    const box = scroller.current;
    const inner = content.current;
    if (!box || !inner) return;
    const observer = new ResizeObserver(() => {
      if (stuck.current) box.scrollTop = box.scrollHeight;
    });
    observer.observe(inner);
    return () => observer.disconnect();
  }, []);

  // The member's own new text always scrolls into view.
  useEffect(() => {
    if (last?.direction !== 'inbound' || !scroller.current) return;
    stuck.current = true;
    scroller.current.scrollTop = scroller.current.scrollHeight;
  }, [last?.id, last?.direction]);

  return (
    <div
      ref={scroller}
      onScroll={(event) => {
        const box = event.currentTarget;
        stuck.current = box.scrollHeight - box.scrollTop - box.clientHeight < STICK_DISTANCE;
      }}
      // Scrollable by keyboard too, even when no text holds a link (axe: scrollable-region-focusable).
      tabIndex={0}
      role="region"
      aria-label="Conversation"
      className="relative h-full overflow-y-auto overscroll-contain outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
    >
      <div ref={content} role="log" aria-label={`Texts with ${firstName}`} className="flex flex-col gap-3 px-3 py-4">
        {groupByDay(messages).map(({ day, items }) => (
          <section key={day} aria-label={day} className="flex flex-col gap-3">
            <p className="self-center rounded-full bg-card/80 px-3 py-0.5 text-[11px] font-medium text-muted-foreground shadow-xs">{day}</p>
            <ol className="flex flex-col gap-3">
              {items.map((message) => (
                <MessageBubble key={message.id} message={message} firstName={firstName} />
              ))}
            </ol>
          </section>
        ))}
        {replying && last?.direction === 'inbound' && <TypingIndicator />}
      </div>
    </div>
  );
}

function TypingIndicator() {
  return (
    <p className="flex w-fit items-center gap-1 self-start rounded-2xl rounded-bl-md border bg-card px-3.5 py-3">
      <span className="sr-only">Loop is replying…</span>
      {[0, 150, 300].map((delay) => (
        <span
          key={delay}
          aria-hidden="true"
          style={{ animationDelay: `${delay}ms` }}
          className="size-1.5 animate-bounce rounded-full bg-muted-foreground/70"
        />
      ))}
    </p>
  );
}

function groupByDay(messages: SimulatorMessage[]) {
  const today = formatDate(new Date());
  const groups: { day: string; items: SimulatorMessage[] }[] = [];
  for (const message of messages) {
    const date = formatDate(message.createdAt);
    const day = date === today ? 'Today' : date;
    const group = groups.at(-1);
    if (group?.day === day) group.items.push(message);
    else groups.push({ day, items: [message] });
  }
  return groups;
}
