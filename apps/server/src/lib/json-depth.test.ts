import { describe, expect, it } from 'vitest';
import { jsonDepthScanner, jsonTooDeep } from './json-depth';

describe('jsonTooDeep', () => {
  it('counts arrays and objects inside one another, up to the limit and one past it', () => {
    expect(jsonTooDeep('{"a":[{"b":[1]}]}', 4)).toBe(false);
    expect(jsonTooDeep('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(jsonTooDeep('[[],[],[],[]]', 2)).toBe(false);
    expect(jsonTooDeep('1', 0)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(jsonTooDeep(JSON.stringify({ text: '[[[[[[{{{{{' }), 1)).toBe(false);
    expect(jsonTooDeep(JSON.stringify({ text: 'say \\"[[[[ and "[[[[' }), 1)).toBe(false);
    expect(jsonTooDeep('["\\\\", [[[]]]]', 3)).toBe(true);
    // Other characters are several bytes, none of them a bracket or a quote.
    expect(jsonTooDeep(JSON.stringify({ text: 'ẞ€😀[[[[' }), 1)).toBe(false);
  });

  it('reads a text in pieces, strings and escapes cut anywhere', () => {
    const text = JSON.stringify({ a: ['say \\"[[[["', { b: [[1]] }] });
    for (let cut = 0; cut <= text.length; cut++) {
      const bytes = Buffer.from(text);
      const scan = jsonDepthScanner(4);
      expect(scan(bytes.subarray(0, cut)) || scan(bytes.subarray(cut)), `cut at ${cut}`).toBe(true);
      const roomy = jsonDepthScanner(5);
      expect(roomy(bytes.subarray(0, cut)) || roomy(bytes.subarray(cut)), `cut at ${cut}`).toBe(false);
    }
  });

  it('answers a mebibyte of [ at once', () => {
    const nested = '['.repeat(512 * 1024) + ']'.repeat(512 * 1024);
    const started = performance.now();
    expect(jsonTooDeep(nested, 32)).toBe(true);
    expect(performance.now() - started).toBeLessThan(50);
  });
});
