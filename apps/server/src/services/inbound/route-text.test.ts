import { describe, expect, it } from 'vitest';
import { nameKey, routeText } from './route-text';

const family = { id: 1, name: 'Smith Family' };
const cafe = { id: 2, name: 'Café Crew' };
const books = { id: 3, name: 'Books' };
const all = [family, cafe, books];

describe('routeText', () => {
  it('sends to the one Loop a sender has, whatever the text says', () => {
    expect(routeText('#blessed day', [books])).toEqual({ kind: 'loops', loops: [books], content: '#blessed day' });
    expect(routeText('News: we moved', [books])).toEqual({ kind: 'loops', loops: [books], content: 'News: we moved' });
  });

  it('still takes a matching name out of a single Loop text', () => {
    expect(routeText('Books: read it', [books])).toEqual({ kind: 'loops', loops: [books], content: 'read it' });
  });

  it('sends to every Loop when none is named', () => {
    expect(routeText('We got a puppy', all)).toEqual({ kind: 'loops', loops: all, content: 'We got a puppy' });
    expect(routeText('Meet at 10:30 today', all)).toMatchObject({ loops: all });
  });

  it('routes `name:` at the start, ignoring case and accents, and removes it', () => {
    expect(routeText('cafe crew: new espresso machine', all)).toEqual({ kind: 'loops', loops: [cafe], content: 'new espresso machine' });
    expect(routeText('  SMITH FAMILY:Dinner at 6', all)).toMatchObject({ kind: 'loops', loops: all });
    expect(routeText('SMITH FAMILY: Dinner at 6', all)).toEqual({ kind: 'loops', loops: [family], content: 'Dinner at 6' });
  });

  it('routes `#name` anywhere, with the name spelled with or without spaces', () => {
    expect(routeText('Dinner at 6 #smithfamily', all)).toEqual({ kind: 'loops', loops: [family], content: 'Dinner at 6' });
    expect(routeText('Dinner #Smith Family at 6', all)).toEqual({ kind: 'loops', loops: [family], content: 'Dinner at 6' });
    expect(routeText('#CAFÉ-crew espresso!', all)).toEqual({ kind: 'loops', loops: [cafe], content: 'espresso!' });
    expect(routeText('#books #smithfamily both', all)).toEqual({ kind: 'loops', loops: [books, family], content: 'both' });
  });

  it('does not take a longer word for a name', () => {
    expect(routeText('#bookshelf done', all)).toEqual({ kind: 'unknown_name', name: '#bookshelf' });
  });

  it('answers a name that matches none of several Loops', () => {
    expect(routeText('Work: promotion!', all)).toEqual({ kind: 'unknown_name', name: 'Work' });
    expect(routeText('So happy #blessed', all)).toEqual({ kind: 'unknown_name', name: '#blessed' });
  });

  it('keeps other hashtags when one names a Loop', () => {
    expect(routeText('#books loved it #blessed', all)).toEqual({ kind: 'loops', loops: [books], content: 'loved it #blessed' });
  });
});

describe('nameKey', () => {
  it('drops case, accents, spaces and punctuation', () => {
    expect(nameKey('Ça  Va, Élodie!')).toBe('cavaelodie');
  });
});
