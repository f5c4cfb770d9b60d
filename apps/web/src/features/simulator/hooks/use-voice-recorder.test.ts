import { describe, expect, it } from 'vitest';
import { microphoneProblem } from './use-voice-recorder';

describe('microphoneProblem', () => {
  it('says what went wrong and what to do instead, by the error getUserMedia gave', () => {
    expect(microphoneProblem(new DOMException('Permission denied', 'NotAllowedError'))).toBe(
      'The microphone is blocked for this site. Allow it in the browser’s site settings, or attach an audio file instead.',
    );
    expect(microphoneProblem(new DOMException('Requested device not found', 'NotFoundError'))).toBe(
      'No microphone was found. Connect one, or attach an audio file instead.',
    );
    expect(microphoneProblem(new DOMException('Could not start audio source', 'NotReadableError'))).toMatch(
      /^The microphone is in use by another app\./,
    );
    expect(microphoneProblem(new Error('something else'))).toBe(
      'The microphone could not start. Try again, or attach an audio file instead.',
    );
  });
});
