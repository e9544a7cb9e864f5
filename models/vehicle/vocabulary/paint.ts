/**
 * Paint condition (schema/vehicle-codes.ts PAINTS) in the words avtoelon.uz and the banks that copy its form use:
 * the site's own options ("Kraska toza", "Pyatno bor", "Kraskasi bor", "To'liq kraskalangan") in
 * Uzbek Latin and Cyrillic, their Russian forms, and English. The site's "Kraskasi bor" ("has
 * paint") is a partial repaint: a full one is its own option. Apostrophe variants (ʻ ' ’) and
 * Cyrillic/Latin script are folded by the label matcher.
 */
import { labelMatcher } from '../../vocabulary/label-matcher';
import type { Paint } from '../../../schema/vehicle-codes';

export const PAINT_LABELS: Readonly<Record<Paint, readonly string[]>> = {
  original: [
    'original_paint', 'original paint', 'factory paint', 'no paint', 'not painted', 'unpainted', 'not repainted',
    'Kraska toza', 'Kraskasi toza', "Bo'yalmagan", 'Краска тоза', 'Краскаси тоза',
    'Родная краска', 'Заводская краска', 'Без окраса', 'Не крашена', 'Не крашеная', 'Не крашен', 'Не окрашена', 'Родной окрас',
  ],
  spots: [
    'paint_spots', 'paint spots', 'spot repaint', 'Pyatno bor', 'Pyatnosi bor', 'Pyatno', 'Пятно бор', 'Пятноси бор',
    'Есть пятна', 'Пятна', 'Локальный окрас',
  ],
  repainted_partly: [
    'repainted', 'partly repainted', 'partially repainted', 'partly_repainted', 'repainted_partially',
    'Kraskasi bor', 'Kraska bor', 'Qisman kraskalangan', 'Краскаси бор', 'Краска бор', 'Қисман краскаланган',
    'Частично окрашена', 'Частично окрашен', 'Частично крашена', 'Крашеная', 'Крашена', 'Крашен',
  ],
  fully_repainted: [
    'fully repainted', 'fully_painted', 'fully painted', 'full repaint', "To'liq kraskalangan", "To'liq kraska",
    'Тўлиқ краскаланган', 'Полностью окрашена', 'Полностью окрашен', 'Полностью крашена', 'Полный окрас',
  ],
};

/** A paint condition in any of those spellings (small typos read) → its code; unknown → null. */
export const normalisePaint: (text: string) => Paint | null = labelMatcher(PAINT_LABELS);
