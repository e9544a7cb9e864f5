/**
 * Make and model names in any script → the catalogue's canonical names (./catalogue.ts).
 *
 * Exact and alias spellings resolve; anything else gets suggestions and never a silent guess: a
 * valuation for the wrong model is worse than a question back. Suggestions are the names within a
 * typo or two of the input (fuzzy.ts's allowance plus one) and the names it begins (Nexia → Nexia 2,
 * Nexia 3), closest first.
 */
import { allowedTypos, editDistance } from '../../vocabulary/fuzzy';
import { BADGE_FAMILIES, MAKES, type MakeEntry } from './catalogue';
import { nameKey, nameWords, wordsKey } from './name-key';

export interface Suggestions {
  suggestions: string[];
}
export type Resolved = string | Suggestions;

export interface VehicleName {
  make: string;
  model: string;
}

export function isResolved<T extends string | VehicleName>(result: T | Suggestions): result is T {
  return typeof result === 'string' || !('suggestions' in (result as object));
}

/** A name or alias, keyed, with what it stands for. */
interface Spelling<T> {
  key: string;
  value: T;
}

interface MakeIndex {
  name: string;
  models: string[];
  modelByKey: Map<string, string>;
  modelSpellings: Spelling<string>[];
}

const MAX_SUGGESTIONS = 5;
/** Longest make name in words ("VAZ (Lada)", "Land Rover", "Build Your Dreams"). */
const MAX_MAKE_WORDS = 3;

const makeByKey = new Map<string, string>();
const makeSpellings: Spelling<string>[] = [];
const indexByMake = new Map<string, MakeIndex>();
/** Model keys across makes, for names given without a make ("Cobalt", "Matiz"). */
const vehiclesByModelKey = new Map<string, VehicleName[]>();
const vehicleSpellings: Spelling<VehicleName>[] = [];

function addKey<T>(map: Map<string, T>, key: string, value: T, what: string): void {
  const clash = map.get(key);
  if (clash !== undefined && clash !== value) throw new Error(`${what} is listed for both ${String(clash)} and ${String(value)}`);
  map.set(key, value);
}

function indexMake(entry: MakeEntry): MakeIndex {
  for (const spelling of [entry.name, ...entry.aliases]) {
    const key = nameKey(spelling);
    addKey(makeByKey, key, entry.name, `make "${spelling}"`);
    makeSpellings.push({ key, value: entry.name });
  }
  const index: MakeIndex = { name: entry.name, models: [], modelByKey: new Map(), modelSpellings: [] };
  for (const model of entry.models) {
    const [canonical, ...aliases] = typeof model === 'string' ? [model] : model;
    index.models.push(canonical);
    const vehicle: VehicleName = { make: entry.name, model: canonical };
    for (const spelling of [canonical, ...aliases]) {
      const key = nameKey(spelling);
      addKey(index.modelByKey, key, canonical, `${entry.name} model "${spelling}"`);
      index.modelSpellings.push({ key, value: canonical });
      vehicleSpellings.push({ key, value: vehicle });
      const sameKey = vehiclesByModelKey.get(key) ?? [];
      if (!sameKey.some((v) => v.make === entry.name)) vehiclesByModelKey.set(key, [...sameKey, vehicle]);
    }
  }
  return index;
}
for (const entry of MAKES) indexByMake.set(entry.name, indexMake(entry));

/**
 * Labels of the spellings closest to `key`, best first: distance within the typo allowance plus
 * one, or the spelling begins with the input.
 */
function closest<T>(key: string, spellings: readonly Spelling<T>[], label: (value: T) => string): string[] {
  // Under 3 characters ("vw", "x7") a typo is another name: exact spellings only, which have failed.
  if (key.length < 3) return [];
  const limit = allowedTypos(key) + 1;
  const score = new Map<string, number>();
  for (const { key: candidate, value } of spellings) {
    const d = candidate.startsWith(key) ? 0.5 : editDistance(key, candidate, limit);
    if (d > limit) continue;
    const name = label(value);
    if (d < (score.get(name) ?? Infinity)) score.set(name, d);
  }
  return [...score]
    .sort(([a, da], [b, db]) => da - db || a.localeCompare(b))
    .slice(0, MAX_SUGGESTIONS)
    .map(([name]) => name);
}

/** The make named by the leading words, longest first ("Land Rover Range Rover" → Land Rover). */
function leadingMake(words: readonly string[]): { make: string; rest: string[] } | null {
  for (let n = Math.min(MAX_MAKE_WORDS, words.length); n >= 1; n--) {
    const make = makeByKey.get(wordsKey(words.slice(0, n)));
    if (make !== undefined) return { make, rest: words.slice(n) };
  }
  return null;
}

/**
 * "Chevrolet", "шевроле", "VAZ (Lada)", "Mercedes" … → the canonical make. Text that goes on to
 * name a model ("Шевроле Кобальт") resolves to its make too. Anything else: suggestions.
 */
export function resolveMake(text: string): Resolved {
  const words = nameWords(text);
  if (words.length === 0) return { suggestions: [] };
  const make = makeByKey.get(wordsKey(words)) ?? leadingMake(words)?.make;
  if (make !== undefined) return make;
  return { suggestions: closest(wordsKey(words), makeSpellings, (name) => name) };
}

/**
 * The canonical model of `make` (any spelling of the make) that `text` names, with or without the
 * make in front: resolveModel('Chevrolet', 'Шевроле Кобальт') === 'Cobalt'. An unknown make gives
 * no suggestions (ask for the make first); an unknown model, the make's closest models.
 */
export function resolveModel(make: string, text: string): Resolved {
  const makeName = resolveMake(make);
  if (!isResolved(makeName)) return { suggestions: [] };
  const index = indexByMake.get(makeName)!;
  let words = nameWords(text);
  const whole = index.modelByKey.get(wordsKey(words));
  if (whole !== undefined) return whole;
  const lead = leadingMake(words);
  if (lead !== null && lead.make === makeName) {
    words = lead.rest;
    const model = index.modelByKey.get(wordsKey(words));
    if (model !== undefined) return model;
  }
  return { suggestions: closest(wordsKey(words), index.modelSpellings, (name) => name) };
}

const fullName = (v: VehicleName): string => `${v.make} ${v.model}`;

/**
 * Make and model from one text: "Chevrolet Cobalt", "Шевроле Кобальт", or a model alone when only
 * one make has it ("Cobalt"; "Matiz" is a Chevrolet, a Daewoo and a Ravon, so it gets suggestions).
 * Suggestions are "Make Model" names.
 */
export function resolveVehicle(text: string): VehicleName | Suggestions {
  const words = nameWords(text);
  if (words.length === 0) return { suggestions: [] };
  const lead = leadingMake(words);
  if (lead !== null && lead.rest.length > 0) {
    const model = resolveModel(lead.make, lead.rest.join(' '));
    if (isResolved(model)) return { make: lead.make, model };
    return { suggestions: model.suggestions.map((m) => `${lead.make} ${m}`) };
  }
  if (lead !== null) return { suggestions: [] };
  const key = wordsKey(words);
  const vehicles = vehiclesByModelKey.get(key) ?? [];
  if (vehicles.length === 1) return vehicles[0];
  // Several makes have the name: those first, then the names it begins or nearly spells (Nexia → Nexia 3).
  const suggestions = [...new Set([...vehicles.map(fullName), ...closest(key, vehicleSpellings, fullName)])];
  return { suggestions: suggestions.slice(0, MAX_SUGGESTIONS) };
}

/** Canonical make names, in catalogue order. */
export function vehicleMakes(): string[] {
  return MAKES.map((m) => m.name);
}

/** Canonical model names of a make (any spelling); [] for an unknown make or one without listed models. */
export function modelsOf(make: string): string[] {
  const name = resolveMake(make);
  return isResolved(name) ? [...indexByMake.get(name)!.models] : [];
}

/** The make that stands for a badge family (Daewoo and Ravon → Chevrolet); any other make, itself. */
export function badgeFamily(make: string): string {
  return BADGE_FAMILIES.find((family) => family.includes(make))?.[0] ?? make;
}
