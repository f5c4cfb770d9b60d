import { CalendarClock, Pause, Play } from 'lucide-react';
import { FREQUENCIES, WEEKDAYS, type Weekday } from '@loop/shared/constants';
import { DEFAULT_QUIET_HOURS, parseQuietHours, reminderTimeOptions } from '@loop/shared/quiet-hours';
import type { LoopDetail, UpdateLoopInput } from '@loop/shared/loops';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useAppConfig } from '@/lib/app-config';
import { formatClockTime } from '@/lib/format-date';
import { useUpdateLoop } from '../api/update-loop';
import { LoopNextSteps } from './loop-next-steps';
import { FREQUENCY_LABELS } from './loop-settings';

const dayLabel = (day: Weekday) => day.charAt(0).toUpperCase() + day.slice(1);

/** "Biweekly (every two weeks), Sundays at 6:00 PM": when the newsletter goes out, in words. */
export function newsletterWhen(loop: Pick<LoopDetail, 'frequency' | 'newsletterDay' | 'newsletterTime'>): string {
  const day = loop.frequency === 'monthly' ? 'the last day of the month' : `${dayLabel(loop.newsletterDay)}s`;
  return `${FREQUENCY_LABELS[loop.frequency]}, ${day} at ${formatClockTime(loop.newsletterTime)}`;
}

/**
 * Settings: when the newsletter goes out (frequency, day, time, each saved at once), pause and
 * resume, and what the Loop will do next. The owner and staff change them (the same PUT, the
 * same texts as staff's admin page); members read them.
 */
export function NewsletterSchedule({ loop }: { loop: LoopDetail }) {
  const canEdit = loop.role !== 'member';
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CalendarClock aria-hidden="true" className="size-5 text-primary" />
          Newsletter Schedule
        </CardTitle>
        <p className="text-sm text-muted-foreground">
          {newsletterWhen(loop)} ({loop.timeZone}).{loop.paused ? ' The loop is paused.' : ''}
        </p>
      </CardHeader>
      <CardContent className="grid gap-5">
        {canEdit && <LoopNextSteps loopId={loop.id} />}
        {canEdit && <ScheduleControls loop={loop} />}
      </CardContent>
    </Card>
  );
}

function ScheduleControls({ loop }: { loop: LoopDetail }) {
  const update = useUpdateLoop(loop.id);
  const config = useAppConfig().data;
  const quiet = config ? config.quietHours : (parseQuietHours(DEFAULT_QUIET_HOURS) ?? null);
  const times = reminderTimeOptions(quiet);

  async function save(input: UpdateLoopInput, done: string, failed: string) {
    try {
      await update.mutateAsync(input);
      toast({ title: done });
    } catch (error) {
      toastError(errorText(error), failed);
      throw error;
    }
  }
  const saveWhen = (input: UpdateLoopInput) =>
    void save(input, 'Newsletter day and time updated successfully!', "Failed to update the newsletter's day and time").catch(
      () => undefined,
    );
  const setPaused = (paused: boolean) => save({ paused }, 'Loop pause state updated successfully', 'Failed to update loop pause state');

  return (
    <div className="grid gap-5">
      <div className="grid gap-4 sm:grid-cols-3">
        <ScheduleSelect
          id="schedule-frequency"
          label="Newsletter Frequency"
          value={loop.frequency}
          disabled={update.isPending}
          options={FREQUENCIES.map((frequency) => [frequency, FREQUENCY_LABELS[frequency]])}
          onChange={(value) =>
            void save(
              { frequency: value as LoopDetail['frequency'] },
              'Loop frequency updated successfully',
              'Failed to update frequency',
            ).catch(() => undefined)
          }
        />
        {loop.frequency === 'monthly' ? (
          <div className="grid gap-2">
            <Label htmlFor="schedule-day">Newsletter Day</Label>
            <p id="schedule-day" className="flex min-h-10 items-center text-sm text-muted-foreground">
              The last day of the month
            </p>
          </div>
        ) : (
          <ScheduleSelect
            id="schedule-day"
            label="Newsletter Day"
            value={loop.newsletterDay}
            disabled={update.isPending}
            options={WEEKDAYS.map((day) => [day, dayLabel(day)])}
            onChange={(value) => saveWhen({ newsletterDay: value as Weekday })}
          />
        )}
        <ScheduleSelect
          id="schedule-time"
          label="Newsletter Time"
          value={loop.newsletterTime}
          disabled={update.isPending}
          options={(times.includes(loop.newsletterTime) ? times : [loop.newsletterTime, ...times]).map((time) => [
            time,
            formatClockTime(time),
          ])}
          onChange={(value) => saveWhen({ newsletterTime: value })}
        />
      </div>
      {loop.paused ? (
        <Button
          className="justify-self-start"
          busy={update.isPending}
          icon={<Play aria-hidden="true" />}
          onClick={() => void setPaused(false).catch(() => undefined)}
        >
          Resume Loop
        </Button>
      ) : (
        <ConfirmDialog
          trigger={
            <Button variant="outline" className="justify-self-start" icon={<Pause aria-hidden="true" />}>
              Pause Loop
            </Button>
          }
          title="Pause this loop?"
          description="No reminders or newsletters go out until you resume it. Members can still text their updates in; they wait for the next newsletter."
          confirmLabel="Pause Loop"
          onConfirm={() => setPaused(true)}
        />
      )}
    </div>
  );
}

interface ScheduleSelectProps {
  id: string;
  label: string;
  value: string;
  disabled: boolean;
  /** [value, label] pairs. */
  options: [string, string][];
  onChange: (value: string) => void;
}

/** One labelled selector of the schedule, saved as soon as it changes. */
function ScheduleSelect({ id, label, value, disabled, options, onChange }: ScheduleSelectProps) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect id={id} value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)}>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}
