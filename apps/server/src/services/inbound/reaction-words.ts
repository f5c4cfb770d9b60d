/**
 * What counts as a reaction rather than news (decision 0056): emoji alone, or up to five words
 * that are all praise, thanks or laughter, in the languages Loop reads (English, Spanish, French,
 * Portuguese, German, Italian). One word outside the list ("Love it! We're moving to Denver")
 * makes it news. Compared as lower-case letters without accents or apostrophes.
 */
const PRAISE = new Set(
  [
    // English
    'love|loved|loving|it|this|that|these|those|so|very|much|sooo|soo|too|such|a|an|the|lovely|beautiful|gorgeous|amazing|awesome|great|wonderful',
    'cute|adorable|sweet|nice|cool|fun|funny|fantastic|perfect|brilliant|incredible|stunning|best|ever|yay|wow|woah|whoa|omg|lol|lmao|haha|hahaha',
    'thanks|thank|you|thx|ty|for|sharing|congrats|congratulations|bravo|aww|awww|aw|ooh|oh|my|god|gosh|what|how|pics|photos|pictures|news|update',
    'xo|xoxo|xx|x|all|guys|everyone|really|just|totally|nicely|done|well|miss|you|heart|warming|heartwarming',
    // Spanish
    'me|encanta|encantan|encanto|que|lindo|linda|lindos|bonito|bonita|precioso|preciosa|hermoso|hermosa|genial|increible|gracias|muchas|mil|jaja|jajaja',
    'felicidades|felicitaciones|guapo|guapa|divino|divina|maravilloso|maravillosa|muy|bueno|buenisimo|te|quiero|los|las|amo|todos',
    // French
    'jadore|adore|trop|mignon|mignonne|magnifique|super|genial|geniale|merci|beaucoup|bravo|felicitations|tres|beau|belle|chouette|top|mdr|ptdr',
    'superbe|vous|aime|je|tout|ca|cest|quel|quelle|bisous',
    // Portuguese
    'adorei|amei|lindo|linda|que|muito|obrigado|obrigada|parabens|maravilhoso|maravilhosa|kkk|kkkk|rsrs|fofo|fofa|demais|legal|otimo|otima|bom',
    'beijos|amo|voces|incrivel',
    // German
    'toll|schon|wunderschon|super|danke|sehr|suss|klasse|prima|herrlich|genial|wow|ich|liebe|es|das|ist|so|hab|euch|lieb|glückwunsch|gluckwunsch|herzlichen',
    'spitze|mega|cool|schoen|wunderschoen|suess|vielen|dank',
    // Italian
    'bellissimo|bellissima|bellissime|bellissimi|bello|bella|che|grazie|mille|stupendo|stupenda|fantastico|fantastica|carino|carina|adoro|complimenti',
    'auguri|evviva|ti|voglio|bene|vi|amo|molto|tanto|ahah|ahahah|meraviglioso|meravigliosa',
  ].flatMap((line) => line.split('|')),
);

/** At most this many words: a longer text has room for news. */
const MAX_WORDS = 5;

function plain(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/['’`]/g, '');
}

/**
 * True when the text is only a reaction: emoji (and punctuation) alone, or up to five words of
 * praise with any emoji and punctuation. Digits, links and other words are news.
 */
export function isReaction(body: string): boolean {
  const text = plain(body).trim();
  if (text === '' || /\d|https?:|www\./.test(text)) return false;
  const words = text
    .replace(/[^a-z\p{L}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '');
  if (words.length === 0) return /\p{Extended_Pictographic}/u.test(text);
  return words.length <= MAX_WORDS && words.every((w) => PRAISE.has(w) || /^(?:ha)+h?$|^(?:ja)+$|^(?:he)+$|^(?:lo)+l$|^x+o*x*$/.test(w));
}

/** How long after a newsletter a short reply is taken as a reaction to it. */
export const REACTION_WINDOW_MS = 2 * 24 * 60 * 60 * 1000;

/**
 * The newsletters a text reacts to: for a reaction (isReaction), the last issue of each of these
 * Loops sent in the two days before `at`. Empty for news, or when no issue is that recent.
 */
export function reactedIssues<L extends { lastIssue?: { id: number; sentAt: Date } | null }>(
  loops: readonly L[],
  body: string,
  at: Date,
): L[] {
  if (!isReaction(body)) return [];
  return loops.filter((loop) => {
    const sentAt = loop.lastIssue?.sentAt.getTime();
    return sentAt !== undefined && sentAt <= at.getTime() && at.getTime() - sentAt <= REACTION_WINDOW_MS;
  });
}
