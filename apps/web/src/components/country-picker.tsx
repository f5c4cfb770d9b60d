import { Check, ChevronDown, Search } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { cn } from '@/lib/cn';
import { findCountry, searchCountries, type CountryCode } from '@/lib/phone-format';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';

/** docs/product.md#limits-and-timings: the country search waits 250 ms after the last key. */
const SEARCH_DEBOUNCE_MS = 250;
/** Marks the picker's popup, which is portaled out of the phone input's DOM. */
export const COUNTRY_LIST_ATTRIBUTE = 'data-country-picker';

interface CountryPickerProps {
  value: CountryCode;
  onChange: (country: CountryCode) => void;
  /** Where focus goes after a country is picked (the number field); else back to the button. */
  focusAfterPick?: () => void;
  disabled?: boolean;
  className?: string;
}

/** A button with the country's code and calling code that opens a searchable list of every country. */
export function CountryPicker({ value, onChange, focusAfterPick, disabled, className }: CountryPickerProps) {
  const [open, setOpen] = useState(false);
  const picked = useRef(false);
  const selected = findCountry(value);
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger
        disabled={disabled}
        className={cn(
          'flex shrink-0 items-center gap-1.5 px-3 text-sm font-medium outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset disabled:cursor-not-allowed disabled:opacity-60',
          className,
        )}
      >
        <CountryCodeMark code={selected.code} />
        {/* Named by its content, not aria-label: the visible "+1" must be part of the name (axe, WCAG 2.5.3). */}
        <span className="sr-only">{`Country: ${selected.name} (+${selected.callingCode})`}</span>
        <span aria-hidden="true">+{selected.callingCode}</span>
        <ChevronDown aria-hidden="true" className="size-4 text-muted-foreground" />
      </PopoverTrigger>
      <PopoverContent
        {...{ [COUNTRY_LIST_ATTRIBUTE]: '' }}
        // Radix draws the popup as a dialog: it needs a name (axe aria-dialog-name).
        aria-label="Choose a country"
        className="w-[min(20rem,calc(100vw-2rem))] p-0"
        onCloseAutoFocus={(event) => {
          if (picked.current && focusAfterPick) {
            event.preventDefault();
            focusAfterPick();
          }
          picked.current = false;
        }}
      >
        <CountryList
          selected={value}
          onSelect={(country) => {
            picked.current = true;
            onChange(country);
            setOpen(false);
          }}
        />
      </PopoverContent>
    </Popover>
  );
}

function CountryList({ selected, onSelect }: { selected: CountryCode; onSelect: (country: CountryCode) => void }) {
  const id = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const [query, setQuery] = useState('');
  const search = useDebouncedValue(query, SEARCH_DEBOUNCE_MS);
  const results = useMemo(() => searchCountries(search), [search]);
  // The active row belongs to one search: a new search starts at its first result.
  const [active, setActive] = useState(() => ({
    search,
    index: Math.max(
      0,
      results.findIndex((country) => country.code === selected),
    ),
  }));
  const activeIndex = active.search === search ? Math.min(active.index, results.length - 1) : 0;
  const activeCountry = results[activeIndex];

  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${activeIndex}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [activeIndex, results]);

  function move(to: number) {
    setActive({ search, index: Math.max(0, Math.min(results.length - 1, to)) });
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const steps: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 8, PageUp: -8 };
    const step = steps[event.key];
    if (step !== undefined) {
      event.preventDefault();
      move(activeIndex + step);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      // Enter before the search has caught up picks the first match of what is typed.
      const target = search === query ? activeCountry : searchCountries(query)[0];
      if (target) onSelect(target.code);
    }
  }

  return (
    <div className="flex flex-col">
      <div className="flex items-center gap-2 border-b px-3">
        <Search aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
        <input
          role="combobox"
          aria-label="Search countries"
          aria-expanded="true"
          aria-controls={`${id}-list`}
          aria-autocomplete="list"
          aria-activedescendant={activeCountry ? `${id}-${activeCountry.code}` : undefined}
          placeholder="Search country or code"
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={onKeyDown}
          className="h-11 w-full min-w-0 bg-transparent text-base outline-none placeholder:text-muted-foreground sm:text-sm"
        />
      </div>
      <ul ref={listRef} id={`${id}-list`} role="listbox" aria-label="Countries" className="max-h-64 overflow-y-auto overscroll-contain p-1">
        {results.map((country, index) => (
          <li
            key={country.code}
            id={`${id}-${country.code}`}
            data-index={index}
            role="option"
            aria-selected={index === activeIndex}
            onMouseDown={(event) => event.preventDefault()}
            onMouseMove={() => index !== activeIndex && move(index)}
            onClick={() => onSelect(country.code)}
            className={cn(
              'flex cursor-pointer items-center gap-3 rounded-lg px-2.5 py-2 text-sm',
              index === activeIndex && 'bg-accent text-accent-foreground',
            )}
          >
            <CountryCodeMark code={country.code} />
            <span className="min-w-0 flex-1 truncate">{country.name}</span>
            <span className="text-muted-foreground tabular-nums">+{country.callingCode}</span>
            <Check aria-hidden="true" className={cn('size-4 text-primary', country.code !== selected && 'invisible')} />
          </li>
        ))}
      </ul>
      {results.length === 0 && <p className="px-4 pt-1 pb-4 text-sm text-muted-foreground">No countries found</p>}
    </div>
  );
}

/**
 * The country's two letters where a flag would be: flag emoji are empty boxes without a colour
 * emoji font (Windows), and flag pictures for every country weigh 2.0 MB (673 KB gzipped, flag-icons
 * 7.5.0) that the list would load as it scrolls.
 */
function CountryCodeMark({ code }: { code: CountryCode }) {
  return (
    <span aria-hidden="true" className="w-7 shrink-0 rounded bg-muted py-0.5 text-center font-mono text-xs font-semibold text-foreground">
      {code}
    </span>
  );
}
