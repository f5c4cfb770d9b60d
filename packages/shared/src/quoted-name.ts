import { z } from 'zod';
import {
  authorityMessage,
  claimsAuthority,
  controlCharactersMessage,
  hasLink,
  hasNoControlCharacters,
  hasPhoneNumber,
  linkMessage,
  phoneNumberMessage,
} from './text';

/**
 * A name Loop quotes in its texts (a person's, a Loop's): required, at most `max` characters, and
 * never a lure: no control characters, links, phone numbers or claims to be Loop or a bank.
 */
export function quotedNameSchema(label: string, max: number) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine(hasNoControlCharacters, controlCharactersMessage(label))
    .refine((v) => !hasLink(v), linkMessage(label))
    .refine((v) => !hasPhoneNumber(v), phoneNumberMessage(label))
    .refine((v) => !claimsAuthority(v), authorityMessage(label));
}
