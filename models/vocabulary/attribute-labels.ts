/**
 * How listings and clients spell renovation, building type and bathroom (yes/no answers: schema/yes-no.ts):
 * Russian site labels, their machine-translated English, Uzbek API values. Each code also
 * matches its own name ("needs_repair", "pre_finish"). Uzbek Cyrillic forms (Ўртача, Ғиштли,
 * Қора сувоқ …) transliterate onto the Uzbek Latin entries and need no entry. Pure data.
 */
import type { Bathroom, BuildingType, Renovation } from './codes';

export const RENOVATION_LABELS: Readonly<Record<Renovation, readonly string[]>> = {
  euro: ['Евроремонт', 'Euro renovation', 'Evro', "Evro ta'mir", 'Yevroremont'],
  // uybor's own codes (the 2026 export): custom = author's design, kapital = a full (capital) renovation.
  designer: ['Авторский проект', "Author's design", 'Mualliflik loyihasi', 'custom'],
  good: ['Yaxshi', 'Хороший', 'kapital', 'Капитальный'],
  average: ['Средний', 'Medium', "O'rtacha", 'sredniy'],
  // "Without renovation" as clients write it (Ta'mirsiz, Remontsiz, без ремонта): the flat needs one.
  needs_repair: ['Требует ремонта', 'Requires repairs', "Ta'mir talab", 'needs repair', "Ta'mirsiz", 'Remontsiz', 'Без ремонта', 'No renovation'],
  pre_finish: ['Предчистовая отделка', 'Tozalashdan avvalgi pardoz', 'pre-finish'],
  rough: ['Черновая отделка', 'Rough finish', 'Qora suvoq', 'chernovaya'],
};

export const BUILDING_TYPE_LABELS: Readonly<Record<BuildingType, readonly string[]>> = {
  panel: ['Панельный', 'Panelli'],
  brick: ['Кирпичный', "G'ishtli", 'kirpich'],
  // Monolythic: the English file's spelling.
  monolith: ['Монолитный', 'Monolit', 'Monolithic', 'Monolythic'],
  block: ['Блочный', 'Blokli', 'blok'],
  wood: ['Деревянный', 'Wooden', "Yog'och"],
  other: ['Другое', 'Boshqa'],
};

export const BATHROOM_LABELS: Readonly<Record<Bathroom, readonly string[]>> = {
  separate: ['Раздельный', 'Санузел раздельный', 'alohida'],
  combined: ['Совмещенный', 'Совмещённый', 'Санузел совмещенный', 'birga'],
  two_plus: ['2 санузла и более', '2+', 'two or more'],
};
