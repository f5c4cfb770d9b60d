import { describe, expect, it } from 'vitest';
import { createPacer } from './pacer';

describe('createPacer', () => {
  it('spaces one sender’s texts to the rate, and keeps senders apart', async () => {
    const pacer = createPacer(50);
    const start = performance.now();
    for (let i = 0; i < 4; i++) await pacer.wait('+15005550006');
    const oneSender = performance.now() - start;
    expect(oneSender).toBeGreaterThanOrEqual(55);
    const other = performance.now();
    await pacer.wait('whatsapp:+14155238886');
    expect(performance.now() - other).toBeLessThan(15);
  });

  it('does not wait at rate 0', async () => {
    const pacer = createPacer(0);
    const start = performance.now();
    for (let i = 0; i < 100; i++) await pacer.wait('x');
    expect(performance.now() - start).toBeLessThan(20);
  });
});
