import { CircleCheck, CircleDashed, MessageCircleQuestion, Trash2 } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { LoopDetail } from '@loop/shared/loops';
import { OWN_QUESTION_LIMITS, ownQuestionSchema, type ComingIssueMember } from '@loop/shared/reminder-questions';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useComingIssue, useReminderQuestions, useSaveReminderQuestions } from '../api/loop-reminders';

/**
 * The owner's view of the reminders (decision 0043): who has sent something for the coming issue
 * (the silent ones get the reminders and the last call), and the owner's own reminder questions.
 * Owner and staff only: a member's silence is for the editor, not for the group.
 */
export function LoopReminders({ loop }: { loop: LoopDetail }) {
  if (loop.role === 'member') return null;
  return (
    <>
      <ComingIssue loopId={loop.id} />
      <OwnQuestions loopId={loop.id} />
    </>
  );
}

function ComingIssue({ loopId }: { loopId: number }) {
  const issue = useComingIssue(loopId);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Coming issue</CardTitle>
        <p className="text-sm text-muted-foreground">
          Who has sent something since the last newsletter. Reminders and the last call the day before go only to those who haven&apos;t.
        </p>
      </CardHeader>
      <CardContent className="grid gap-4">
        {issue.isPending ? (
          <p className="flex items-center gap-2 text-muted-foreground" role="status">
            <Spinner /> Loading who has sent something...
          </p>
        ) : issue.isError ? (
          <div className="grid justify-items-start gap-2" role="alert">
            <p>{errorText(issue.error)}</p>
            <Button variant="outline" onClick={() => void issue.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <div className="grid gap-4 sm:grid-cols-2">
            <PeopleList
              title={`Sent something (${issue.data.sent.length})`}
              people={issue.data.sent}
              empty="Nobody yet."
              icon={<CircleCheck aria-hidden="true" className="size-4 shrink-0 text-primary" />}
            />
            <PeopleList
              title={`Not yet (${issue.data.silent.length})`}
              people={issue.data.silent}
              empty="Everyone has sent something."
              icon={<CircleDashed aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />}
            />
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function PeopleList({ title, people, empty, icon }: { title: string; people: ComingIssueMember[]; empty: string; icon: ReactNode }) {
  return (
    <section className="grid content-start gap-2" aria-label={title}>
      <h3 className="font-medium">{title}</h3>
      {people.length === 0 ? (
        <p className="text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ul className="grid gap-1.5">
          {people.map((p) => (
            <li key={p.memberId} className="flex min-w-0 items-center gap-2 rounded-lg bg-muted px-3 py-2">
              {icon}
              <span className="min-w-0 flex-1 truncate">
                {p.firstName} {p.lastName}
              </span>
              {p.updates > 0 && (
                <span className="shrink-0 text-sm text-muted-foreground">
                  {p.updates} {p.updates === 1 ? 'update' : 'updates'}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function OwnQuestions({ loopId }: { loopId: number }) {
  const questions = useReminderQuestions(loopId);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveReminderQuestions(loopId);
  const own = questions.data?.questions ?? [];
  const full = own.length >= OWN_QUESTION_LIMITS.count;

  function add(event: FormEvent) {
    event.preventDefault();
    const checked = ownQuestionSchema.safeParse(text);
    if (!checked.success) return setProblem(checked.error.issues[0]?.message ?? 'Please check the question.');
    setProblem(null);
    save.mutateAsync([...own, checked.data]).then(
      () => {
        setText('');
        toast({ title: 'Question added' });
      },
      (error: unknown) => setProblem(errorText(error)),
    );
  }
  function remove(question: string) {
    save.mutateAsync(own.filter((q) => q !== question)).then(
      () => toast({ title: 'Question removed' }),
      (error: unknown) => toastError(errorText(error), 'Failed to remove the question'),
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <MessageCircleQuestion aria-hidden="true" className="size-5 text-primary" />
          Reminder questions
        </CardTitle>
        <p className="text-sm text-muted-foreground">
          Each reminder asks one question, never the same twice in a row: one for the Loop&apos;s vibe, or one of yours.
        </p>
      </CardHeader>
      <CardContent className="grid gap-4">
        {questions.isPending ? (
          <p className="flex items-center gap-2 text-muted-foreground" role="status">
            <Spinner /> Loading questions...
          </p>
        ) : questions.isError ? (
          <div className="grid justify-items-start gap-2" role="alert">
            <p>{errorText(questions.error)}</p>
            <Button variant="outline" onClick={() => void questions.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <>
            <section className="grid gap-2" aria-label="Your questions">
              <h3 className="font-medium">Your questions</h3>
              {own.length === 0 ? (
                <p className="text-sm text-muted-foreground">None yet: reminders use the questions for the Loop&apos;s vibe.</p>
              ) : (
                <ul className="grid gap-1.5">
                  {own.map((q) => (
                    <li key={q} className="flex min-w-0 items-center gap-2 rounded-lg bg-muted py-1 pr-1 pl-3">
                      <q className="min-w-0 flex-1 break-words">{q}</q>
                      <Button variant="ghost" size="icon" aria-label={`Remove "${q}"`} disabled={save.isPending} onClick={() => remove(q)}>
                        <Trash2 aria-hidden="true" />
                      </Button>
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <form className="grid gap-2" onSubmit={add} noValidate>
              <label htmlFor="own-question" className="font-medium">
                Add a question
              </label>
              <div className="flex flex-col gap-2 sm:flex-row">
                <Input
                  id="own-question"
                  value={text}
                  maxLength={OWN_QUESTION_LIMITS.maxChars}
                  placeholder="Who visited Grandma this week?"
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={problem ? 'own-question-problem' : 'own-question-hint'}
                  disabled={full}
                  onChange={(e) => setText(e.target.value)}
                />
                <Button type="submit" disabled={full || save.isPending || text.trim() === ''}>
                  Add question
                </Button>
              </div>
              {problem ? (
                <p id="own-question-problem" className="text-sm text-destructive" role="alert">
                  {problem}
                </p>
              ) : (
                <p id="own-question-hint" className="text-sm text-muted-foreground">
                  {full
                    ? `That's the most a Loop can have (${OWN_QUESTION_LIMITS.count}). Remove one to add another.`
                    : `Up to ${OWN_QUESTION_LIMITS.count} questions of ${OWN_QUESTION_LIMITS.maxChars} characters, no links or phone numbers.`}
                </p>
              )}
            </form>
            {questions.data.vibeQuestions.length > 0 && (
              <details className="text-sm">
                <summary className="cursor-pointer font-medium">
                  Questions for the Loop&apos;s vibe ({questions.data.vibeQuestions.length})
                </summary>
                <ul className="mt-2 grid list-disc gap-1 pl-5 text-muted-foreground">
                  {questions.data.vibeQuestions.map((q) => (
                    <li key={q}>{q}</li>
                  ))}
                </ul>
              </details>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
