/**
 * How much a query term weighs in the ranking, before BM25 weighs it by its
 * rarity. BM25 alone lets function words win in a small collection: in a
 * memory of 20 entries "what", "did", "I", "about" each appear in a few, so
 * an entry sharing four of them outranks the one sharing "visa". Function
 * words (the closed classes: articles, pronouns, auxiliaries, prepositions,
 * conjunctions, question words) of the languages below, and the verbs a
 * message about an earlier conversation is made of (say, tell, know), weigh a
 * twentieth of a content word: a Japanese verb ending alone is several
 * hiragana bigrams. They still rank, so a query of nothing else still finds.
 * Lists are in folded form (./fold.ts), merged: a word that is a function word
 * in one language and a content word in another ("die", "as") weighs less in
 * both, a loss of rank only; the common English words among other languages'
 * function words (German "hat", "war", Italian "come", "dove") are left out.
 */

/** What a function word weighs, against 1 for any other term. */
export const FUNCTION_WORD_WEIGHT = 0.05;

const words = (list: string) => list.split(' ');
const FUNCTION_WORDS = new Set([
  // English
  ...words(
    'a an the this that these those i me my mine myself we us our ours you your yours he him his she her hers it its they them their theirs what which who whom whose when where why how is am are was were be been being do does did done doing have has had having will would shall should can could may might must not no nor and or but if then than so as of at by for from in into on onto off out over under up down to with about above after before between through during without again there here all any both each few more most other some such only own same too very just also s t don doesn didn isn wasn aren weren won wouldn can cant couldn shouldn im ive id ill youre thats whats lets please tell told say said know remember',
  ),
  // German
  ...words(
    'der die das den dem des ein eine einen einem einer eines ich du er sie es wir ihr mich mir dich dir uns euch sich mein meine meinen meinem meiner dein deine sein seine ihre unser und oder aber wenn dass ob als wie was wer wo wann warum ist bist sind seid waren habe hast haben hatte wird werden wurde kann konnen muss soll will nicht kein keine auf aus bei mit nach von vor zu zum zur im in am an um uber unter fur durch gegen ohne auch noch schon nur so sehr sagen gesagt sag weiss weisst erinnerst',
  ),
  // French
  ...words(
    'le la les l un une des du de d au aux ce cet cette ces je j me m moi tu te t toi il elle on nous vous ils elles se s mon ma mes ton ta tes sa ses notre nos votre vos leur leurs et ou mais donc car ni que qu qui quoi quel quelle quand comment pourquoi ou est suis es sommes etes sont etait ai as avons avez ont avait pas ne n y en dans sur sous pour par avec sans chez plus tres aussi dit dire sais',
  ),
  // Spanish and Portuguese
  ...words(
    'el la los las lo un una unos unas uma uns umas o os a as de del do da dos das al ao yo tu usted el ella nosotros vosotros ellos ellas eu voce ele ela nos eles elas me te se mi mis tu tus su sus meu minha teu tua seu sua nosso y e o ni pero mas que quien quem cual qual cuando quando como donde onde por porque para con com sem en em sobre no na es esta estoy soy fue ha he han hay tiene tengo e esta sou foi tem muy muito tambien tambem dije dicho decir sabes',
  ),
  // Italian and Dutch
  ...words(
    'il lo gli i un uno una di da in con su per tra fra io tu lui lei noi voi loro mi ti ci vi si mio mia tuo tua suo sua e ed o ma che chi quando perche non sono sei ha ho hanno era de het een ik jij je hij zij wij jullie mijn jouw zijn haar ons en of maar dat die wat wie waar wanneer hoe waarom is bent was heb hebt heeft hebben niet geen op aan met voor naar bij uit om ook detto dire gezegd zeggen weet',
  ),
]);

/**
 * Japanese writes its particles, verb endings and auxiliaries in hiragana, its
 * content words mostly in kanji and katakana: a bigram of hiragana alone ("です",
 * "した", "どこ") is most often function, not topic, and one of hiragana then
 * kanji or katakana ("と言", "のホ") spans a particle and the next word.
 */
const HIRAGANA_ONLY = /^\p{Script=Hiragana}+$/u;
const PARTICLE_THEN_WORD = /^\p{Script=Hiragana}[\p{Script=Han}\p{Script=Katakana}]$/u;
/** Han characters that are grammar, not topic: Chinese particles, pronouns and the copula; Japanese 私 and 何; say (说, 言). */
const HAN_FUNCTION = /[的了是吗呢吧我你他她它们这那个私何说言]/u;

/** The weight of a word or CJK piece (a bigram or single character) of a query. */
export function weightOf(kind: 'word' | 'cjk', piece: string): number {
  if (kind === 'word') return FUNCTION_WORDS.has(piece) ? FUNCTION_WORD_WEIGHT : 1;
  return HIRAGANA_ONLY.test(piece) || PARTICLE_THEN_WORD.test(piece) || HAN_FUNCTION.test(piece)
    ? FUNCTION_WORD_WEIGHT
    : 1;
}
