import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { ApiError } from './api-client';

/**
 * Shows a refused form's field errors (a 400's `errors`, such as a too common password) under
 * their fields, focusing the first, instead of in a toast that covers the button. With
 * one field named, the server's whole message goes under it: it says what to do. False when the
 * error names none of the form's fields: the caller shows it its usual way.
 */
export function showFieldErrors<T extends FieldValues>(form: UseFormReturn<T>, error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  const values: object = form.getValues();
  const fields = error.fields.filter((field) => field.path in values);
  fields.forEach((field, index) =>
    form.setError(field.path as Path<T>, { message: fields.length === 1 ? error.message : field.message }, { shouldFocus: index === 0 }),
  );
  return fields.length > 0;
}
