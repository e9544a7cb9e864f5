/**
 * District and mahalla names in the report's language (issue 35, item 6).
 *
 * Districts: Uzbek as the official SOATO table writes them (data/geo/uz_districts.csv, name_uz,
 * "tumani" dropped, the apostrophe of oʻ/gʻ as U+02BB), Russian in the nominative (the table has
 * only the adjective, Чиланзарский район), English as the service names them (DISTRICT_NAMES).
 * A test holds the Uzbek names to the table and the Russian ones to the district matcher.
 *
 * Mahallas: the gazetteer (models/vocabulary/mahallas.json) keeps the name as the listings spell it
 * in Cyrillic and its Latin form. Russian gets the Cyrillic, English the service's Latin name, and
 * Uzbek the Cyrillic transliterated by the official Uzbek Cyrillic → Latin rules (uzbekLatin below):
 * the data holds no Uzbek Latin mahalla names, so a name spelled the Russian way (Катартал) stays
 * Russian in spelling (Katartal), not the Uzbek Qatortol.
 */
import { DISTRICT_IDS, DISTRICT_NAMES, mahallasOf, type DistrictId } from '../../models/vocabulary';
import type { ReportLanguage } from './report-data';

const UZ_DISTRICTS: Readonly<Record<DistrictId, string>> = {
  almazar: 'Olmazor', bektemir: 'Bektemir', chilanzar: 'Chilonzor', mirabad: 'Mirobod', mirzo_ulugbek: 'Mirzo Ulugʻbek', sergeli: 'Sirgʻali',
  shaykhantakhur: 'Shayxontohur', uchtepa: 'Uchtepa', yakkasaray: 'Yakkasaroy', yashnabad: 'Yashnobod', yunusabad: 'Yunusobod', yangihayot: 'Yangihayot',
};
const RU_DISTRICTS: Readonly<Record<DistrictId, string>> = {
  almazar: 'Алмазар', bektemir: 'Бектемир', chilanzar: 'Чиланзар', mirabad: 'Мирабад', mirzo_ulugbek: 'Мирзо-Улугбек', sergeli: 'Сергели',
  shaykhantakhur: 'Шайхантахур', uchtepa: 'Учтепа', yakkasaray: 'Яккасарай', yashnabad: 'Яшнабад', yunusabad: 'Юнусабад', yangihayot: 'Янгихаёт',
};
export const DISTRICT_NAMES_BY_LANGUAGE: Readonly<Record<ReportLanguage, Readonly<Record<DistrictId, string>>>> = { en: DISTRICT_NAMES, ru: RU_DISTRICTS, uz: UZ_DISTRICTS };

const byEnglishName = new Map<string, DistrictId>(DISTRICT_IDS.map((id) => [DISTRICT_NAMES[id], id]));

/** A district (its English name, as records keep it) in the language; an unknown name as given. */
export function districtName(name: string, lang: ReportLanguage): string {
  const id = byEnglishName.get(name);
  return id ? DISTRICT_NAMES_BY_LANGUAGE[lang][id] : name;
}

const VOWELS = new Set('аеёиоуўэюяaeiou');
const UZBEK_LETTERS: Readonly<Record<string, string>> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', ё: 'yo', ж: 'j', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l', м: 'm', н: 'n', о: 'o', п: 'p',
  р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'x', ч: 'ch', ш: 'sh', щ: 'sh', ъ: 'ʼ', ы: 'i', ь: '', э: 'e', ю: 'yu', я: 'ya',
  ў: 'oʻ', қ: 'q', ғ: 'gʻ', ҳ: 'h',
};

/**
 * Uzbek Cyrillic → Latin by the 1995 alphabet's rules: е is ye at the start of a word and after a
 * vowel or ъ/ь, else e; ц is ts after a vowel, else s; ў, ғ take U+02BB, ъ is the tutuq belgisi
 * U+02BC; capitals stay capitals (Ч → Ch). Latin letters pass as they are.
 */
export function uzbekLatin(text: string): string {
  let out = '';
  let previous = '';
  for (const ch of text.normalize('NFC')) {
    const lower = ch.toLowerCase();
    let latin: string;
    if (lower === 'е') latin = previous === '' || !/\p{L}/u.test(previous) || VOWELS.has(previous) || previous === 'ъ' || previous === 'ь' ? 'ye' : 'e';
    else if (lower === 'ц') latin = VOWELS.has(previous) ? 'ts' : 's';
    else latin = UZBEK_LETTERS[lower] ?? ch;
    out += ch !== lower && latin.length > 0 ? latin[0].toUpperCase() + latin.slice(1) : latin;
    previous = lower;
  }
  return out;
}

interface MahallaNames {
  en: string;
  ru: string;
  uz: string;
}
let mahallas: Map<string, MahallaNames> | undefined;

/** A mahalla by its id in the language; an unknown id: `fallback` (the name as recorded). */
export function mahallaName(id: string | null, fallback: string | null, lang: ReportLanguage): string | null {
  mahallas ??= new Map(DISTRICT_IDS.flatMap((d) => mahallasOf(d).map((m) => [m.id, { en: m.name, ru: m.cyrillic, uz: uzbekLatin(m.cyrillic) }] as const)));
  const found = id === null ? undefined : mahallas.get(id);
  return found ? found[lang] : fallback;
}
