/**
 * The vocabulary clients are answered with is the one the listings speak (issue 35): every
 * renovation, building type, bathroom and yes/no value in every listing file in data/ is read by the
 * same matchers that read a client's request, except the few cells that are not a value of their
 * column at all (a placeholder, or a building type in uybor 2023's renovation column).
 */
import { createAdapter } from '../../models/ingest/adapters';
import { loadCsv } from '../../models/ingest/csv';
import { Olx2021Geocodes } from '../../models/ingest/geocode';
import { createNormaliser, type Normaliser } from '../../models/ingest/normaliser';
import { OLX_2021_GEOCODED_PATH, SOURCE_FILES } from '../../models/ingest/sources';

type Attribute = 'renovation' | 'buildingType' | 'bathroom' | 'yesNo';
/** Cells that are no value of their column, and why. */
const NOT_VALUES: Record<Attribute, readonly string[]> = {
  renovation: ['None', 'Другое', 'Кирпичный', 'Панельный'], // placeholder, "other", building types in uybor 2023-10's shifted column
  buildingType: ['None', 'No material'],
  bathroom: [],
  yesNo: [],
};

describe('the vocabulary against every listing file in data/', () => {
  const seen = new Map<string, { attribute: Attribute; text: string; matched: boolean; sources: Set<string> }>();
  beforeAll(() => {
    const base = createNormaliser();
    let source = '';
    const recorded = <A extends Attribute>(attribute: A) => ((text: string) => {
      const value = (base[attribute] as (t: string) => unknown)(text);
      if (typeof text === 'string' && text.trim() !== '') {
        const entry = seen.get(`${attribute}\u0000${text}`) ?? { attribute, text, matched: value !== null, sources: new Set<string>() };
        entry.sources.add(source);
        seen.set(`${attribute}\u0000${text}`, entry);
      }
      return value;
    }) as Normaliser[A];
    const normaliser: Normaliser = { ...base, renovation: recorded('renovation'), buildingType: recorded('buildingType'), bathroom: recorded('bathroom'), yesNo: recorded('yesNo') };
    let geocodes: Olx2021Geocodes | undefined;
    for (const file of SOURCE_FILES) {
      source = file.source;
      const adapter = createAdapter(file.source, { normaliser, olx2021Geocodes: () => (geocodes ??= Olx2021Geocodes.fromRows(loadCsv(OLX_2021_GEOCODED_PATH).rows)) });
      loadCsv(file.path).rows.forEach((row, i) => adapter.adapt(row, i + 2));
    }
  });

  it('reads every value the listings use', () => {
    const unread = [...seen.values()].filter((e) => !e.matched && !NOT_VALUES[e.attribute].includes(e.text));
    expect(unread.map((e) => `${e.attribute} "${e.text}" (${[...e.sources].join(', ')})`)).toEqual([]);
    // The files do speak these columns: the check is not vacuous.
    for (const attribute of ['renovation', 'buildingType', 'bathroom', 'yesNo'] as const) expect([...seen.values()].filter((e) => e.attribute === attribute && e.matched).length).toBeGreaterThan(1);
  });

  it('every cell set aside as no value is still in the data (the list stays true)', () => {
    for (const [attribute, texts] of Object.entries(NOT_VALUES)) for (const text of texts) expect(seen.get(`${attribute}\u0000${text}`)?.matched).toBe(false);
  });
});
