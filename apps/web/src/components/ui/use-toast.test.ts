import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissToast, getToasts, toast, toastError } from './use-toast';

describe('toast store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    dismissToast();
    vi.runAllTimers();
    vi.useRealTimers();
  });

  it('shows one toast at a time', () => {
    toast({ title: 'First' });
    const second = toast({ title: 'Second', description: 'Only me' });
    expect(getToasts()).toEqual([{ id: second.id, title: 'Second', description: 'Only me', open: true }]);
  });

  it('closes a dismissed toast and forgets it after 1,000,000 ms', () => {
    const shown = toast({ title: 'Saved' });
    shown.dismiss();
    expect(getToasts()[0]).toMatchObject({ id: shown.id, open: false });
    vi.advanceTimersByTime(999_999);
    expect(getToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(getToasts()).toHaveLength(0);
  });

  it('shows failures as a destructive "Error" toast with the message or the fallback', () => {
    toastError('', 'Failed to logout');
    expect(getToasts()[0]).toMatchObject({ variant: 'destructive', title: 'Error', description: 'Failed to logout' });
    toastError('Invalid email or password', 'Something went wrong');
    expect(getToasts()[0]?.description).toBe('Invalid email or password');
  });
});
