import type { Frequency } from '@loop/shared/constants';

const LABELS: Record<Frequency, string> = { weekly: 'Weekly', biweekly: 'Biweekly', monthly: 'Monthly' };

/** docs/product.md#admin-dashboard: "Weekly", "Biweekly", "Monthly". */
export function frequencyLabel(frequency: Frequency): string {
  return LABELS[frequency];
}
