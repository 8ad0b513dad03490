/**
 * Memory ranks by what a message is about, not by how many function words it
 * shares with an entry ("what did I say about my visa?" puts the visa entries
 * first), in English, German, French, Spanish and Japanese; and it takes a
 * message of any length, keeping the terms that tell most.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ANY_PIECES } from '../../src/core/text/minisearch.js';
import type { IndexedDbSessionService } from '../../src/index.js';
import { MEMORY_QUERY_SCAN } from '../../src/memory/engine.js';
import { freshStore, textEvent } from '../search/helpers.js';

const ids = { appName: 'chat', userId: 'ada' };
const open: IndexedDbSessionService[] = [];
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
});

async function memoryOf(texts: string[]): Promise<IndexedDbSessionService> {
  const store = freshStore();
  open.push(store);
  await store.memory.addEventsToMemory({
    ...ids,
    events: texts.map((t, i) => textEvent(`m${i}`, t, 'user', 1_000 + i)),
  });
  return store;
}
const best = async (store: IndexedDbSessionService, query: string, limit = 10) =>
  (await store.memory.searchMemory({ ...ids, query, limit })).memories.map((m) => m.content.parts[0]?.text);

const english = [
  'My visa appointment is at the embassy on March 3.',
  'What did you say about the weather in Lisbon?',
  'I need to book a table for two at the Italian place.',
  'Can you remind me what I said about my sister’s birthday?',
  'My passport expires in 2027, I should renew it.',
  'What is the capital of Australia?',
  'I said I would call the bank about my mortgage.',
  'Did I tell you about my new job at the library?',
  'Remind me to water the tomato plants on Sunday.',
  'The visa was approved, it is valid for two years.',
  'What did I say about the dentist?',
  'I think my flight to Tokyo leaves at 9.',
  'Please translate this into French for me.',
  'What time did I say the meeting starts?',
  'My cat is called Miso and she is three.',
  'I did say that I prefer window seats.',
  'How do I reset my router?',
  'Can you tell me about my budget for the trip?',
  'I want to learn the guitar this year.',
  'What did we decide about the hotel in Kyoto?',
];

describe('memory weighs function words less', () => {
  it('puts both visa entries first in a 20-entry memory for "what did I say about my visa?"', async () => {
    const store = await memoryOf(english);
    const found = await best(store, 'what did I say about my visa?', 2);
    expect(found.sort()).toEqual([english[0], english[9]].sort());
  });

  it.each([
    [
      'German',
      'Was weißt du noch über mein Visum?',
      ['Mein Visum für Japan wurde gestern genehmigt.', 'Das Visum gilt für zwei Jahre.'],
      [
        'Was hast du über das Wetter in Berlin gesagt?',
        'Ich habe mit dir über die Reise nach Wien gesprochen.',
        'Was ist mit dem Termin beim Zahnarzt?',
        'Kannst du mir sagen, was ich über das Hotel gesagt habe?',
        'Ich bin mir nicht sicher, was wir über das Budget gesagt haben.',
      ],
    ],
    [
      'French',
      'Qu’est-ce que je t’ai dit sur mon visa ?',
      ['Mon visa pour le Canada a été accepté.', 'Le visa est valable deux ans.'],
      [
        'Qu’est-ce que tu as dit sur la météo à Paris ?',
        'Je ne sais pas ce que nous avons décidé pour le dîner.',
        'Est-ce que tu te souviens de ce que je t’ai dit sur ma sœur ?',
        'Qu’est-ce que je dois apporter pour le voyage ?',
        'Tu m’as parlé de ton nouveau travail à la bibliothèque.',
      ],
    ],
    [
      'Spanish',
      '¿Qué te dije sobre mi visado?',
      ['Mi visado para Japón ya está aprobado.', 'El visado vale por dos años.'],
      [
        '¿Qué te conté sobre el tiempo en Madrid?',
        '¿Qué dijimos de la cena con mis padres?',
        'No sé qué hicimos con el presupuesto del viaje.',
        '¿Me recuerdas lo que te conté sobre mi hermana?',
      ],
    ],
    [
      'Japanese',
      'ビザについて私は何と言いましたか？',
      ['来月のビザの申請をしました', 'ビザは二年間有効です'],
      [
        'それについて何と言いましたか',
        '私が言ったことを覚えていますか',
        '天気について何と言いましたか',
        '私はホテルについて話しました',
      ],
    ],
  ])('puts the entries about the topic first in %s', async (_, query, topic, others) => {
    const store = await memoryOf([others[0] as string, topic[0] as string, ...others.slice(1), topic[1] as string]);
    expect((await best(store, query, 2)).sort()).toEqual([...topic].sort());
  });

  it('still finds by function words alone, when that is all a query has', async () => {
    const store = await memoryOf(english);
    expect(await best(store, 'what is the', 1)).toEqual(['What is the capital of Australia?']);
  });
});

describe('memory takes a message of any length', () => {
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

  it('answers a message far over 1,024 characters instead of refusing it', async () => {
    const store = await memoryOf(english);
    const message = `${filler(1_000)} so what did I say about my visa?`;
    expect(message.length).toBeGreaterThan(5_000);
    expect((await best(store, message, 2)).sort()).toEqual([english[0], english[9]].sort());
  });

  it(`keeps the terms the memory holds, rarest first, when a message has more than ${MAX_ANY_PIECES}`, async () => {
    const store = await memoryOf(english);
    // Far more distinct terms than are asked for, most of them in no entry; the telling one comes last.
    const message = `${filler(300)} and the my about what tomato`;
    expect((await best(store, message, 1))[0]).toBe('Remind me to water the tomato plants on Sunday.');
  });

  it('reads the ends of a message too long to read whole', async () => {
    const store = await memoryOf(english);
    const half = filler(10_000);
    expect(half.length).toBeGreaterThan(MEMORY_QUERY_SCAN);
    const found = async (message: string) => (await best(store, message, 1))[0];
    expect(await found(`about my visa? ${half} ${half}`)).toMatch(/visa/);
    expect(await found(`${half} ${half} about my visa?`)).toMatch(/visa/);
    // The middle of a message this long is not read.
    expect(await found(`${half} dentist ${half}`)).toBeUndefined();
  });

  it('answers a long Japanese message, one run of several hundred bigrams', async () => {
    const store = await memoryOf(['来月のビザの申請をしました', '天気について話しました']);
    const message = `${'今日はとても長いメッセージを書いています。'.repeat(60)}ビザの申請はどうなりましたか`;
    expect(message.length).toBeGreaterThan(1_024);
    expect(await best(store, message, 1)).toEqual(['来月のビザの申請をしました']);
  });
});
