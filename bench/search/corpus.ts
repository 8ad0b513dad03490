/**
 * A deterministic chat corpus for the search benchmarks: English turns with a
 * few accented words, and Chinese and Japanese ones, over a fixed vocabulary so
 * that common words are common and rare ones rare (a Zipf-like draw).
 */
const english =
  'the a to and of in is it you that for on with this my can what how be do have are your at about i please help me need want know tell when where why we they trip visa flight hotel booking paris london tokyo berlin budget invoice meeting project deadline report python code error bug deploy server database cache query index weather rain sunny recipe pasta dinner train ticket museum passport renewal embassy appointment insurance doctor fever medicine garden tomato concert guitar lesson homework exam chemistry history novel poem translation spanish french german grammar'.split(
    ' ',
  );
const accented = ['café', 'naïve', 'résumé', 'crème', 'brûlée', 'über', 'señor', 'São', 'Zürich', 'façade'];
const chinese = [
  '我想',
  '预订',
  '北京',
  '的酒店',
  '签证',
  '怎么',
  '申请',
  '明天',
  '天气',
  '很好',
  '会议',
  '报告',
  '数据库',
  '错误',
];
const japanese = [
  '東京',
  'で',
  'ホテル',
  'を',
  '予約',
  'したい',
  'ビザ',
  'の',
  '申請',
  '明日',
  'の天気',
  '会議',
  '資料',
  'エラー',
];

/** A small fast PRNG, so every run draws the same corpus. */
export function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function zipf(next: () => number, words: readonly string[]): string {
  return words[Math.floor(words.length * next() ** 2.2)] as string;
}

/**
 * Real chat text draws from tens of thousands of words, a few very common and
 * most rare (Zipf's law): the named words above, then made-up ones, ranked.
 */
const SYLLABLES = 'ka lo mi ne ru sa te vi do pa ze fu ri mo ta ge'.split(' ');
const vocabulary: string[] = [...english];
for (let i = 0; vocabulary.length < 20_000; i++) {
  let word = '';
  for (let n = i + 7; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  vocabulary.push(word);
}
/** Cumulative Zipf weights (exponent 1) over the vocabulary's ranks. */
const cumulative: number[] = [];
vocabulary.reduce((sum, _, rank) => {
  const total = sum + 1 / (rank + 1);
  cumulative.push(total);
  return total;
}, 0);

function zipfWord(next: () => number): string {
  const target = next() * (cumulative[cumulative.length - 1] as number);
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cumulative[mid] as number) < target) lo = mid + 1;
    else hi = mid;
  }
  return vocabulary[lo] as string;
}

/** The text of message `i`: about one in ten Chinese, one in ten Japanese, the rest English. */
export function messageText(next: () => number): string {
  const kind = next();
  const length = 6 + Math.floor(next() * 24);
  if (kind < 0.1) return `${Array.from({ length: Math.ceil(length / 3) }, () => zipf(next, chinese)).join('')}。`;
  if (kind < 0.2) return `${Array.from({ length: Math.ceil(length / 2) }, () => zipf(next, japanese)).join('')}。`;
  const words = Array.from({ length }, () => (next() < 0.02 ? zipf(next, accented) : zipfWord(next)));
  return `${words.join(' ')}.`;
}

/**
 * What a search-as-you-type box sends on the way to a query: the word being
 * typed cut short (matched by prefix), and typos (matched within an edit).
 */
export const TYPED_QUERIES = [
  'pas',
  'passp',
  'passport ren',
  'embas',
  'appointmnt',
  'chemstry exam',
  'guitar les',
  'deplo',
  'tokyo hot',
  'gramm',
  'recipe pas',
  'insurence',
];

/** Queries as a search box gets them: one or two words, some rare, some accented or CJK. */
export const QUERIES = [
  'visa',
  'passport renewal',
  'embassy appointment',
  'cafe',
  'Zurich',
  'tokyo hotel',
  'deploy error',
  'chemistry exam',
  '签证',
  '北京的酒店',
  '予約',
  'ホテル',
  'grammar',
  'guitar lesson',
  'resume',
  '数据库错误',
];
