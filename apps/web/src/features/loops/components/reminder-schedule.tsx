import { BellRing } from 'lucide-react';
import { useState } from 'react';
import { NEW_REMINDER_TIME, WEEKDAYS, type ReminderEntry, type Weekday } from '@loop/shared/constants';
import { DEFAULT_QUIET_HOURS, parseQuietHours, reminderTimeOptions, reminderTimeRange } from '@loop/shared/quiet-hours';
import type { LoopDetail } from '@loop/shared/loops';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { NativeSelect } from '@/components/ui/native-select';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useAppConfig } from '@/lib/app-config';
import { formatClockTime } from '@/lib/format-date';
import { useUpdateLoop } from '../api/update-loop';
import { TimeZoneSetting } from './time-zone-setting';

function dayLabel(day: Weekday): string {
  return day.charAt(0).toUpperCase() + day.slice(1);
}

function sortByWeekday(entries: ReminderEntry[]): ReminderEntry[] {
  return [...entries].sort((a, b) => WEEKDAYS.indexOf(a.day) - WEEKDAYS.indexOf(b.day));
}

/**
 * When members get a reminder to text in. The owner's changes are saved at once (docs/product.md#loop-detail):
 * ticking a day adds it at 09:00, unticking removes it, a new time replaces that day's time.
 */
export function ReminderSchedule({ loop }: { loop: LoopDetail }) {
  const canEdit = loop.role !== 'member';
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <BellRing aria-hidden="true" className="size-5 text-primary" />
          Reminder Schedule
        </CardTitle>
        <p className="text-sm text-muted-foreground">
          {canEdit
            ? 'Members get a text on these days reminding them to share an update. Changes save right away.'
            : 'Members get a text on these days reminding them to share an update.'}
        </p>
      </CardHeader>
      <CardContent className="grid gap-5">
        {canEdit ? <ScheduleEditor loop={loop} /> : <ScheduleSummary schedule={loop.reminderSchedule} />}
        <TimeZoneSetting loop={loop} canEdit={canEdit} />
      </CardContent>
    </Card>
  );
}

function ScheduleSummary({ schedule }: { schedule: ReminderEntry[] }) {
  if (schedule.length === 0) return <p className="text-muted-foreground">No reminders are scheduled.</p>;
  return (
    <ul className="grid gap-2">
      {sortByWeekday(schedule).map((entry) => (
        <li key={entry.day} className="flex justify-between rounded-lg bg-muted px-4 py-3">
          <span className="font-medium">{dayLabel(entry.day)}</span>
          <span className="text-muted-foreground">{formatClockTime(entry.time)}</span>
        </li>
      ))}
    </ul>
  );
}

function ScheduleEditor({ loop }: { loop: LoopDetail }) {
  const update = useUpdateLoop(loop.id);
  const config = useAppConfig().data;
  // What the person last chose, shown until the server's answer has been read back.
  const [draft, setDraft] = useState<{ schedule: ReminderEntry[]; pending: number } | null>(null);
  const schedule = draft?.schedule ?? loop.reminderSchedule;

  function save(next: ReminderEntry[], kind: 'schedule' | 'time') {
    const sorted = sortByWeekday(next);
    setDraft((current) => ({ schedule: sorted, pending: (current?.pending ?? 0) + 1 }));
    // mutateAsync, not mutate: mutate's own callbacks would only run for the latest change.
    update
      .mutateAsync({ reminderSchedule: sorted })
      .then(
        () => toast({ title: kind === 'time' ? 'Reminder time updated successfully!' : 'Reminder schedule updated successfully!' }),
        (error: unknown) =>
          toastError(errorText(error), kind === 'time' ? 'Failed to update reminder time' : 'Failed to update reminder schedule'),
      )
      // The last change to settle hands the display back to the refetched Loop.
      .finally(() => setDraft((current) => (current && current.pending > 1 ? { ...current, pending: current.pending - 1 } : null)));
  }

  // Every 5 minutes, clear of the server's quiet hours (08:00 to 20:30 with 21:00-08:00); a
  // time saved before, outside them, stays listed so the select shows it.
  const quiet = config ? config.quietHours : (parseQuietHours(DEFAULT_QUIET_HOURS) ?? null);
  const times = reminderTimeOptions(quiet);
  return (
    <div className="grid gap-2">
      <ul className="grid gap-2">
        {WEEKDAYS.map((day) => {
          const entry = schedule.find((e) => e.day === day);
          const checkboxId = `reminder-${day}`;
          return (
            <li
              key={day}
              className="flex min-h-14 items-center justify-between gap-3 rounded-lg border bg-card px-3 py-1.5 has-[[data-state=checked]]:border-primary/40 has-[[data-state=checked]]:bg-accent/60"
            >
              <label htmlFor={checkboxId} className="flex min-h-11 flex-1 cursor-pointer items-center gap-3 font-medium">
                <Checkbox
                  id={checkboxId}
                  checked={entry !== undefined}
                  onCheckedChange={(checked) =>
                    save(
                      checked === true
                        ? [...schedule.filter((e) => e.day !== day), { day, time: NEW_REMINDER_TIME }]
                        : schedule.filter((e) => e.day !== day),
                      'schedule',
                    )
                  }
                />
                {dayLabel(day)}
              </label>
              {entry ? (
                <NativeSelect
                  aria-label={`${dayLabel(day)} reminder time`}
                  aria-describedby={quiet ? 'reminder-times-hint' : undefined}
                  value={entry.time}
                  onChange={(event) =>
                    save(
                      schedule.map((e) => (e.day === day ? { day, time: event.target.value } : e)),
                      'time',
                    )
                  }
                  className="w-32 shrink-0"
                >
                  {(times.includes(entry.time) ? times : [entry.time, ...times]).map((time) => (
                    <option key={time} value={time}>
                      {formatClockTime(time)}
                    </option>
                  ))}
                </NativeSelect>
              ) : (
                <span className="pr-3 text-sm text-muted-foreground">No reminder</span>
              )}
            </li>
          );
        })}
      </ul>
      {quiet ? (
        <p id="reminder-times-hint" className="text-sm text-muted-foreground">
          Times run from {formatClockTime(reminderTimeRange(quiet).from)} to {formatClockTime(reminderTimeRange(quiet).to)}: Loop sends no
          texts from {formatClockTime(quiet.start)} to {formatClockTime(quiet.end)} in each member's own time.
        </p>
      ) : null}
    </div>
  );
}
