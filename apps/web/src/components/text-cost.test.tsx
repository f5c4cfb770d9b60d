import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TextCost as TextCostFacts } from '@loop/shared/group-messages';
import { TextCost } from './text-cost';

const cost: TextCostFacts = {
  text: '"Smith Family" from "Alice": Picnic moved to Sunday 🎉',
  recipients: 2,
  recipientNames: ['Bea', 'Carl'],
  notReached: 0,
  segments: 3,
  ucs2Characters: ['🎉'],
  texts: 6,
};

describe('TextCost', () => {
  it('says which character made each text Unicode, and how many segments that makes', () => {
    render(<TextCost cost={cost} />);
    expect(screen.getByTestId('text-cost').textContent).toBe('2 people will get it: 3 text segments each, 6 texts in all.');
    expect(screen.getByTestId('text-cost-unicode').textContent).toMatch(
      /^“🎉” is outside the basic\s+text alphabet, so each text counts as 3 segments \(Unicode: 70 characters a segment instead of 160\)\.\s+Leave it out to send fewer\.$/,
    );
  });

  it('says nothing of Unicode for a text of plain characters, or one that fits one segment anyway', () => {
    const { rerender } = render(<TextCost cost={{ ...cost, segments: 2, ucs2Characters: [], texts: 4 }} />);
    expect(screen.queryByTestId('text-cost-unicode')).toBeNull();
    rerender(<TextCost cost={{ ...cost, segments: 1, texts: 2 }} />);
    expect(screen.queryByTestId('text-cost-unicode')).toBeNull();
  });
});
