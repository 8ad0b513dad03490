/**
 * English word forms, by regular inflection only: "running" is also looked for
 * as "run", "runs" and "ran" is not. The forms are asked of the index beside
 * the word (a query expansion), not indexed: what is indexed stays the words
 * as written, so no saved index changes, and the check of each hit compares
 * words with words. A form no text holds costs one lookup and finds nothing,
 * so over-generating ("make" -> "makeing" is never produced, "bus" -> "bu" may
 * be) is harmless; the rules are the regular English ones, applied to any
 * lower-case a-z word (a French or German plural in -s is found too).
 */

/** Most forms a word is looked for by, itself excluded. */
const MAX_FORMS = 8;
const PLAIN = /^[a-z]+$/;
const VOWEL = /[aeiou]/;

/** Short words whose last consonant doubles before -ing and -ed: run -> running, stop -> stopped. */
const doubles = (base: string): boolean =>
  base.length >= 3 &&
  base.length <= 4 &&
  !VOWEL.test(base[base.length - 1] as string) &&
  !/[wxy]$/.test(base) &&
  VOWEL.test(base[base.length - 2] as string) &&
  !VOWEL.test(base[base.length - 3] as string);

/** The bases a word may be an inflection of, likeliest first (none: it is a base itself). */
function basesOf(word: string): string[] {
  const strip = (suffix: string) => (word.endsWith(suffix) ? word.slice(0, -suffix.length) : undefined);
  for (const suffix of ['ies', 'ied']) {
    const stem = strip(suffix);
    if (stem && stem.length >= 2) return [`${stem}y`];
  }
  for (const suffix of ['ing', 'ed']) {
    const stem = strip(suffix);
    if (!stem || stem.length < 2 || !VOWEL.test(stem)) continue;
    // running -> run; booking -> book; making -> make.
    if (stem.length >= 3 && stem[stem.length - 1] === stem[stem.length - 2] && !/(ll|ss|zz)$/.test(stem))
      return [stem.slice(0, -1)];
    // seeing -> see, agreed -> agree; liked -> like (or lik: a form no text holds finds nothing).
    if (stem.endsWith('e')) return [suffix === 'ing' ? stem : `${stem}e`];
    return [stem, `${stem}e`];
  }
  const es = strip('es');
  if (es && /(s|x|z|ch|sh)$/.test(es)) return [es];
  if (word.endsWith('s') && !word.endsWith('ss') && word.length >= 4) return [word.slice(0, -1)];
  return [];
}

/** The regular inflections of a base: plural or third person, -ing, -ed. */
function inflections(base: string): string[] {
  const last = base[base.length - 1] as string;
  if (/(s|x|z|ch|sh)$/.test(base)) return [`${base}es`, `${base}ing`, `${base}ed`];
  if (/[^aeiou]y$/.test(base)) return [`${base.slice(0, -1)}ies`, `${base}ing`, `${base.slice(0, -1)}ied`];
  if (base.endsWith('ee')) return [`${base}s`, `${base}ing`, `${base}d`];
  if (base.endsWith('e')) return [`${base}s`, `${base.slice(0, -1)}ing`, `${base}d`];
  if (doubles(base)) return [`${base}s`, `${base}${last}ing`, `${base}${last}ed`];
  return [`${base}s`, `${base}ing`, `${base}ed`];
}

/** Other forms of `word` to look for, closest first; none for words that are not plain lower-case a-z. */
export function formsOf(word: string): string[] {
  if (word.length < 3 || !PLAIN.test(word)) return [];
  const bases = basesOf(word);
  const found = new Set<string>(bases);
  for (const base of bases.length > 0 ? bases : [word]) for (const form of inflections(base)) found.add(form);
  found.delete(word);
  return [...found].filter((form) => form.length >= 2).slice(0, MAX_FORMS);
}
