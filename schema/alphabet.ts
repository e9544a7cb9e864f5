/**
 * Cyrillic → Latin letter table: the official Uzbek Latin correspondences, extended to the
 * Russian-only letters so that Russian and Uzbek spellings of one name land close together.
 * Pure data; the transliteration logic lives in ./translit.ts.
 */
export const CYRILLIC_TO_LATIN: Readonly<Record<string, string>> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'yo', ж: 'j', з: 'z', и: 'i', й: 'y',
  к: 'k', л: 'l', м: 'm', н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f',
  // Uzbek writes х as x and ҳ as h; Russian has only х, so Russian names come out with x too.
  х: 'x', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'sh',
  // In Uzbek ъ is the tutuq belgisi (ʼ), e.g. таъмир = ta'mir; normaliseText then drops it.
  ъ: "'", ы: 'i', ь: '', э: 'e', ю: 'yu', я: 'ya',
  ў: "o'", қ: 'q', ғ: "g'", ҳ: 'h',
};

/** Every apostrophe-like character people type in oʻ, gʻ and the tutuq belgisi. */
export const APOSTROPHES = /['ʻʼ’‘`´ʹ′]/g;
