import { useImperativeHandle, useLayoutEffect, useRef, useState, type ChangeEvent, type FocusEvent, type Ref } from 'react';
import { DEFAULT_PHONE_COUNTRY } from '@loop/shared/constants';
import { afterPress } from '@/lib/after-press';
import { cn } from '@/lib/cn';
import { formatNational, maxNationalDigits, readInternational, toPhoneValue, type CountryCode } from '@/lib/phone-format';
import { COUNTRY_LIST_ATTRIBUTE, CountryPicker } from './country-picker';

export interface PhoneInputProps {
  /** E.164-ish: "+14155550100", or "" when empty. */
  value: string;
  onChange: (value: string) => void;
  /** Called when focus leaves the whole control (number, country button and list). */
  onBlur?: () => void;
  defaultCountry?: CountryCode;
  ref?: Ref<HTMLInputElement>;
  id?: string;
  name?: string;
  disabled?: boolean;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-describedby'?: string;
  className?: string;
}

interface PhoneState {
  country: CountryCode;
  /** National digits as typed (a trunk "0" included). */
  digits: string;
  /** What is shown while a typed "+" calling code is not complete yet ("+4"). */
  pending: string | null;
  /** The value this state gives the form. */
  value: string;
}

function stateFromValue(value: string, country: CountryCode): PhoneState {
  if (value === '') return { country, digits: '', pending: null, value };
  const read = readInternational(value, country);
  if (!read) return { country, digits: '', pending: value, value };
  return { ...read, pending: null, value };
}

/** Where the caret goes: just after the `count`-th digit of the formatted text. */
function caretAfterDigits(text: string, count: number): number {
  if (count <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < text.length; i++) {
    if (/\d/.test(text[i]!) && ++seen === count) return i + 1;
  }
  return text.length;
}

/**
 * An international phone number: a searchable country button showing the country code and "+code", and
 * the national number formatted as it is typed. Pasting "+44..." switches the country.
 */
export function PhoneInput({
  value,
  onChange,
  onBlur,
  defaultCountry = DEFAULT_PHONE_COUNTRY as CountryCode,
  ref,
  className,
  ...inputProps
}: PhoneInputProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  useImperativeHandle(ref, () => inputRef.current as HTMLInputElement, []);
  const caret = useRef<number | null>(null);
  const [state, setState] = useState(() => stateFromValue(value, defaultCountry));
  // The form set a value this control did not type (a reset): show that value.
  if (value !== state.value) setState(stateFromValue(value, state.country));
  const display = state.pending ?? formatNational(state.digits, state.country);

  useLayoutEffect(() => {
    const input = inputRef.current;
    if (caret.current === null || !input || document.activeElement !== input) return;
    const position = caretAfterDigits(display, caret.current);
    input.setSelectionRange(position, position);
    caret.current = null;
  }, [display]);

  function commit(country: CountryCode, digits: string, pending: string | null = null) {
    // A bare "+" is no number yet; "+999" is, just not a valid one (the form says so).
    const next = pending === null ? toPhoneValue(digits, country) : pending === '+' ? '' : pending;
    setState({ country, digits, pending, value: next });
    if (next !== state.value) onChange(next);
  }

  function handleChange(event: ChangeEvent<HTMLInputElement>) {
    const raw = event.target.value;
    if (raw.trimStart().startsWith('+')) {
      const read = readInternational(raw, state.country);
      if (!read) return commit(state.country, '', `+${raw.replace(/\D/g, '')}`);
      const digits = read.digits.slice(0, maxNationalDigits(read.country));
      caret.current = digits.length;
      return commit(read.country, digits);
    }
    let digits = raw.replace(/\D/g, '');
    let before = raw.slice(0, event.target.selectionStart ?? raw.length).replace(/\D/g, '').length;
    // Deleting a ")" or "-" deletes the digit next to it: else formatting would put it back.
    if (digits === state.digits && raw.length < display.length) {
      const forward = (event.nativeEvent as InputEvent).inputType === 'deleteContentForward';
      const at = forward ? before : before - 1;
      if (at >= 0 && at < digits.length) {
        digits = digits.slice(0, at) + digits.slice(at + 1);
        before = at;
      }
    }
    caret.current = before;
    commit(state.country, digits.slice(0, maxNationalDigits(state.country)));
  }

  function handleBlur(event: FocusEvent<HTMLDivElement>) {
    const next = event.relatedTarget;
    if (next instanceof Node && event.currentTarget.contains(next)) return;
    if (next instanceof Element && next.closest(`[${COUNTRY_LIST_ATTRIBUTE}]`)) return;
    if (onBlur) afterPress(onBlur);
  }

  const invalid = inputProps['aria-invalid'] === true || inputProps['aria-invalid'] === 'true';
  return (
    <div
      onBlur={handleBlur}
      className={cn(
        'flex h-11 w-full overflow-hidden rounded-lg border border-input bg-card shadow-xs transition-colors focus-within:border-ring focus-within:ring-2 focus-within:ring-ring/30',
        invalid && 'border-destructive focus-within:border-destructive focus-within:ring-destructive/25',
        inputProps.disabled && 'opacity-60',
        className,
      )}
    >
      <CountryPicker
        value={state.country}
        onChange={(country) => commit(country, state.digits.slice(0, maxNationalDigits(country)))}
        focusAfterPick={() => inputRef.current?.focus()}
        disabled={inputProps.disabled}
        className="border-r border-input"
      />
      <input
        ref={inputRef}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        {...inputProps}
        value={display}
        onChange={handleChange}
        className="h-full w-full min-w-0 bg-transparent px-3 text-base text-foreground outline-none placeholder:text-muted-foreground disabled:cursor-not-allowed sm:text-sm"
      />
    </div>
  );
}
