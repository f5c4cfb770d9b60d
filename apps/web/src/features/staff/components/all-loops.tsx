import { Search, SearchX } from 'lucide-react';
import { useId, useState } from 'react';
import type { AdminSort } from '@loop/shared/constants';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useStaffLoops } from '../api/get-staff-loops';
import { StaffLoopRow } from './staff-loop-row';
import { LoadMoreButton, usePagedRows } from './paged-list';

const SORT_OPTIONS: { value: AdminSort; label: string }[] = [
  { value: 'recent', label: 'Most Recent' },
  { value: 'name', label: 'Loop Name' },
  { value: 'members', label: 'Member Count' },
];

/** Every Loop, a page at a time: search, sort, inline frequency and pause, a row opens the Loop. */
export function AllLoops() {
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<AdminSort>('recent');
  const debouncedSearch = useDebouncedValue(search, 300);
  const loops = useStaffLoops({ search: debouncedSearch, sort });
  const searchId = useId();
  const sortId = useId();

  const { rows, total } = usePagedRows(loops, 'Failed to fetch loops');
  const searching = debouncedSearch.trim() !== '';

  return (
    <Card>
      <CardHeader className="gap-4">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <CardTitle>All Loops</CardTitle>
          {loops.isSuccess && (
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {rows.length < total
                ? `Showing ${rows.length} of ${total.toLocaleString()}`
                : `${total.toLocaleString()} ${total === 1 ? 'loop' : 'loops'}`}
            </p>
          )}
        </div>
        <div className="grid gap-3 sm:grid-cols-[1fr_12rem]">
          <div className="relative">
            <Label htmlFor={searchId} className="sr-only">
              Search loops
            </Label>
            <Search
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            />
            <Input
              id={searchId}
              type="search"
              placeholder="Search loops..."
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              className="pl-9"
              autoComplete="off"
            />
          </div>
          <div>
            <Label htmlFor={sortId} className="sr-only">
              Sort loops
            </Label>
            <NativeSelect id={sortId} value={sort} onChange={(event) => setSort(event.target.value as AdminSort)}>
              {SORT_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </NativeSelect>
          </div>
        </div>
      </CardHeader>
      <CardContent>
        {loops.isPending ? (
          <div className="flex justify-center py-8">
            <Spinner />
          </div>
        ) : rows.length === 0 ? (
          <p className="flex items-center gap-2 rounded-lg bg-muted p-4 text-muted-foreground">
            <SearchX aria-hidden="true" className="size-5" />
            {loops.isError ? 'Loops could not be loaded.' : searching ? 'No loops match your search.' : 'No loops yet.'}
          </p>
        ) : (
          <Table
            className="table-fixed md:table-auto md:min-w-[860px]"
            containerClassName="rounded-xl border"
            aria-busy={loops.isPlaceholderData}
          >
            <TableHeader>
              <TableRow className="bg-muted">
                <TableHead className="sticky left-0 z-10 bg-muted">Loop Name</TableHead>
                <TableHead className="hidden md:table-cell">Admin</TableHead>
                <TableHead className="hidden text-right md:table-cell">Members</TableHead>
                <TableHead className="hidden md:table-cell">Frequency</TableHead>
                <TableHead className="hidden md:table-cell">Last Newsletter</TableHead>
                <TableHead className="hidden md:table-cell">Created</TableHead>
                <TableHead className="w-32 text-right md:w-auto md:text-left">Status</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody className={loops.isPlaceholderData ? 'opacity-60' : undefined}>
              {rows.map((loop) => (
                <StaffLoopRow key={loop.id} loop={loop} />
              ))}
            </TableBody>
          </Table>
        )}
        <LoadMoreButton list={loops} />
      </CardContent>
    </Card>
  );
}
