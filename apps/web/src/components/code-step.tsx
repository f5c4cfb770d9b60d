import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';

/** When "Resend code" may be pressed, for an answer that says to wait `seconds`. */
export function resendTime(seconds: number): number {
  return Date.now() + seconds * 1000;
}

/** Seconds left until `until` (ms), counted down once a second. */
export function useCountdown(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (now >= until) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(1000, until - now));
    return () => clearTimeout(timer);
  }, [now, until]);
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/** The 6-digit code field: numeric keyboard on phones, and the phone's own "fill the code" offer. */
export function CodeField({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  return (
    <FormField id={id} label="Code" hint="The 6 digits in the text" error={error}>
      {(aria) => (
        <Input
          {...aria}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={9}
          className="text-lg tracking-widest"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </FormField>
  );
}

/** Client-side check of the code before it is sent (the server checks again). */
export function codeError(code: string): string | undefined {
  return /^\d{6}$/.test(code.replace(/[\s-]/g, '')) ? undefined : 'The code is the 6 digits in the text';
}

/** A code field's state: the typed code, its error once shown (then following the typing), and the check before sending. */
export function useCodeField(id: string) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  return {
    code,
    clear: () => setCode(''),
    /** Shows the code's error and focuses the field when it has one; true when the code may be sent. */
    check: () => {
      const problem = codeError(code);
      setError(problem);
      if (problem) document.getElementById(id)?.focus();
      return problem === undefined;
    },
    /** Shows the server's refusal (a wrong or used code) under the field, not in a toast. */
    fail: (message: string) => {
      setError(message);
      document.getElementById(id)?.focus();
    },
    field: {
      id,
      value: code,
      error,
      onChange: (value: string) => {
        setCode(value);
        if (error) setError(codeError(value));
      },
    },
  };
}

/** "Resend code", disabled with a visible count until the server allows another code. */
export function ResendButton({ until, busy, onResend }: { until: number; busy: boolean; onResend: () => void }) {
  const left = useCountdown(until);
  return (
    <Button type="button" variant="outline" className="w-full" disabled={left > 0 || busy} busy={busy} onClick={onResend}>
      {left > 0 ? `Resend code in ${left} s` : 'Resend code'}
    </Button>
  );
}

/**
 * With the Phone Simulator as provider no phone receives the text, and a newcomer cannot open the
 * simulator before signing in: the card shows the simulated text, clearly marked.
 */
export function SimulatedText({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <div
      role="note"
      aria-label="Simulated text"
      className="rounded-md border border-dashed border-amber-500 bg-amber-50 p-3 text-sm text-amber-950"
    >
      <p className="font-semibold">Simulated text (no real text was sent)</p>
      <p className="mt-1 break-words">{text}</p>
      <p className="mt-2 text-xs">
        This Loop runs with the Phone Simulator, which proves nothing about who holds a phone. Real groups need Twilio.
      </p>
    </div>
  );
}

/** Said on every code screen: a phone that replied STOP gets no texts until it replies START. */
export const NO_TEXT_HINT = 'No text? If you once replied STOP to Loop, reply START to the same number first, then resend.';

/** Said on the sign-up and reset code screens: a code works only in the browser that asked for it (decision 0027). */
export const SAME_BROWSER_HINT =
  'A code works only in the browser that asked for it. Asked in another browser in the last 10 minutes? Finish there, or wait and ask again here.';
