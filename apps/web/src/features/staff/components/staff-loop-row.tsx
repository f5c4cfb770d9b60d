import { Pause, Play } from 'lucide-react';
import type { MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { AdminLoop } from '@loop/shared/admin';
import { FREQUENCIES, type Frequency } from '@loop/shared/constants';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/native-select';
import { TableCell, TableRow } from '@/components/ui/table';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format-date';
import { useSetLoopFrequency } from '../api/set-loop-frequency';
import { useToggleLoopPause } from '../api/toggle-loop-pause';
import { frequencyLabel } from '../lib/frequency-label';

/** Presses on these do their own thing, never open the row. */
const INTERACTIVE = 'a, button, select, input, label, textarea';

/** One Loop of "All Loops": a click anywhere but its controls opens /admin/loops/{id}. */
export function StaffLoopRow({ loop }: { loop: AdminLoop }) {
  const navigate = useNavigate();
  const togglePause = useToggleLoopPause(loop.id);
  const setFrequency = useSetLoopFrequency(loop.id);
  const path = `/admin/loops/${loop.id}`;

  // While a change is on its way, show what was asked for.
  const paused = togglePause.isPending ? !loop.paused : loop.paused;
  const frequency = setFrequency.isPending && setFrequency.variables ? setFrequency.variables : loop.frequency;

  function openRow(event: MouseEvent<HTMLTableRowElement>) {
    if (event.target instanceof Element && event.target.closest(INTERACTIVE)) return;
    // Selecting text in a row is not a click on it.
    if (window.getSelection()?.toString()) return;
    void navigate(path);
  }

  function changeFrequency(value: Frequency) {
    setFrequency.mutate(value, {
      onSuccess: () => toast({ title: 'Loop frequency updated successfully' }),
      onError: (error) => toastError(errorText(error), 'Failed to update frequency'),
    });
  }

  function changePause() {
    togglePause.mutate(undefined, {
      onSuccess: () => toast({ title: 'Loop pause state updated successfully' }),
      onError: (error) => toastError(errorText(error), 'Failed to toggle loop pause state'),
    });
  }

  // Paused rows are dimmed (docs/product.md#admin-dashboard) by a tinted background and softer text that still reads at
  // 4.5:1 or more (axe): see-through text, as it was, fell to 2.2:1.
  const dim = paused && 'text-muted-foreground';
  const frequencySelect = (
    <NativeSelect
      aria-label={`Frequency of ${loop.name}`}
      className="w-32 [&_select]:h-9"
      value={frequency}
      disabled={setFrequency.isPending}
      onChange={(event) => changeFrequency(event.target.value as Frequency)}
    >
      {FREQUENCIES.map((option) => (
        <option key={option} value={option}>
          {frequencyLabel(option)}
        </option>
      ))}
    </NativeSelect>
  );
  const lastNewsletter = loop.lastNewsletter ? formatDate(loop.lastNewsletter) : 'Never';
  return (
    <TableRow
      data-paused={paused || undefined}
      onClick={openRow}
      className={cn('group cursor-pointer hover:bg-accent', paused && 'bg-muted')}
    >
      {/* The name stays in view while a tablet scrolls the other columns. */}
      <TableCell className={cn('sticky left-0 z-10 group-hover:bg-accent md:max-w-48', paused ? 'bg-muted' : 'bg-card')}>
        <Link to={path} className="block font-semibold break-words outline-none hover:underline focus-visible:underline md:truncate">
          {loop.name}
        </Link>
        {loop.context && <p className="truncate text-xs text-muted-foreground">{loop.context}</p>}
        {/* Phones: the admin, counts and frequency fold in here; the status stays beside. */}
        <div className="mt-1.5 grid gap-1.5 text-xs text-muted-foreground md:hidden">
          <p className="truncate">
            {loop.creator.firstName} {loop.creator.lastName}
          </p>
          <p>
            {loop.memberCount.toLocaleString()} {loop.memberCount === 1 ? 'member' : 'members'} · Last newsletter {lastNewsletter}
          </p>
          {frequencySelect}
        </div>
      </TableCell>
      <TableCell className={cn('hidden max-w-48 md:table-cell', dim)}>
        <p className="truncate">
          {loop.creator.firstName} {loop.creator.lastName}
        </p>
        {loop.creator.email && <p className="truncate text-xs text-muted-foreground">{loop.creator.email}</p>}
      </TableCell>
      <TableCell className={cn('hidden text-right tabular-nums md:table-cell', dim)}>{loop.memberCount.toLocaleString()}</TableCell>
      <TableCell className="hidden md:table-cell">{frequencySelect}</TableCell>
      <TableCell className={cn('hidden whitespace-nowrap tabular-nums md:table-cell', dim)}>{lastNewsletter}</TableCell>
      <TableCell className={cn('hidden whitespace-nowrap tabular-nums md:table-cell', dim)}>{formatDate(loop.createdAt)}</TableCell>
      {/* The state and the action apart: "Active" is what the Loop is, "Pause" what the button does. */}
      <TableCell className="text-right md:text-left">
        <div className="flex flex-col items-end gap-1.5 md:flex-row md:items-center md:gap-3">
          <span
            className={cn(
              'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold',
              paused ? 'bg-amber-100 text-amber-900' : 'bg-emerald-100 text-emerald-900',
            )}
          >
            {paused ? 'Paused' : 'Active'}
          </span>
          <Button
            variant="outline"
            size="sm"
            aria-label={paused ? `Resume ${loop.name}` : `Pause ${loop.name}`}
            disabled={togglePause.isPending}
            onClick={changePause}
          >
            {paused ? <Play aria-hidden="true" /> : <Pause aria-hidden="true" />}
            {paused ? 'Resume' : 'Pause'}
          </Button>
        </div>
      </TableCell>
    </TableRow>
  );
}
