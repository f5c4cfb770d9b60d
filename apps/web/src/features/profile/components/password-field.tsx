import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';

/** The password in use, typed again before a change only its holder may make (delete the account, move the phone). */
export function PasswordField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  error?: string | undefined;
}) {
  return (
    <FormField id={props.id} label={props.label} hint={props.hint} error={props.error}>
      {(control) => (
        <Input
          {...control}
          type="password"
          autoComplete="current-password"
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
    </FormField>
  );
}
