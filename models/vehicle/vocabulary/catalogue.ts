/**
 * The make and model catalogue: every make and model in data/vehicles (avtoelon.uz 2022 and 2023),
 * plus makes sold new in Uzbekistan since, so that a request for one resolves to a known make with
 * no market data rather than to "unknown". Pure data; matching is in ./resolve.ts.
 *
 * A model is its canonical name, or [canonical, ...aliases]. Spellings that differ only in case,
 * spaces, punctuation, script (Кобальт / Cobalt) or a Roman numeral (Nexia II / Nexia 2) match
 * without an alias (./name-key.ts); aliases are for the rest: other names of one car, Russian forms
 * that transliteration does not reach (Шевроле, Трекер), and the site's own variants.
 * test/models/vehicle-vocabulary.test.ts checks that every name in the data resolves.
 */

export type ModelSpelling = string | readonly [canonical: string, ...aliases: string[]];

export interface MakeEntry {
  name: string;
  aliases: readonly string[];
  models: readonly ModelSpelling[];
}

/**
 * Makes one plant has sold the same cars under: Asaka's Daewoo (until 2008), Ravon (2015–2020) and
 * Chevrolet. A model name they share (Damas, Matiz, Nexia 2, Gentra) is one car under three badges.
 */
export const BADGE_FAMILIES: readonly (readonly string[])[] = [['Chevrolet', 'Daewoo', 'Ravon']];

export const MAKES: readonly MakeEntry[] = [
  // UzAuto Motors (Asaka, formerly GM Uzbekistan and UzDaewooAuto): most of the market. Kept apart as
  // the site lists them, though some are one car: the Gentra is the Lacetti renamed (the 2022 file
  // calls every one a Lacetti, the 2023 file uses both names for new cars), the Nexia 2 is the
  // Daewoo Nexia's successor and is listed with its years too.
  {
    name: 'Chevrolet',
    aliases: ['Шевроле', 'Шевролет', 'Chevy'],
    models: [
      'Cobalt', 'Spark', ['Lacetti', 'Лачетти', 'Лацетти'], ['Gentra', 'Джентра', 'Жентра'], 'Nexia 2', 'Nexia 3',
      'Damas', 'Labo', 'Matiz', 'Matiz Best', 'Captiva', 'Malibu', 'Malibu 2', ['Tracker', 'Трекер'],
      ['Tracker 2', 'Трекер 2'], ['Tracker Premier', 'Трекер Премьер'], 'Epica', 'Equinox', 'Orlando',
      ['TrailBlazer', 'Трейлблейзер'], ['Cruze', 'Круз'], 'Niva', 'Tacuma', 'Aveo', ['Tahoe', 'Тахо'],
      ['Traverse', 'Траверс'], 'Suburban', ['Blazer', 'Блейзер'], 'Impala', 'Onix', 'Monza', 'Menlo', 'Evanda',
      'Camaro', 'Bolt',
    ],
  },
  // The same plant's cars before 2008, and its 2015–2020 brand.
  {
    name: 'Daewoo',
    aliases: ['Дэу', 'Деу', 'Дэо', 'UzDaewoo'],
    models: [
      'Nexia', 'Nexia 2', ['Matiz', 'Matiz (Standart)'], 'Matiz Best', 'Matiz Creative', 'Tico', 'Damas', 'Labo',
      'Lacetti', ['Gentra', 'Джентра', 'Жентра'], 'Prince', 'Espero', 'Kalos', 'Leganza',
    ],
  },
  {
    name: 'Ravon',
    aliases: ['Равон'],
    // Ravon made one Nexia, so "Ravon Nexia" is the R3.
    models: ['Gentra', ['Nexia R3', 'Nexia', 'R3'], 'R2', 'R4', 'Matiz'],
  },
  {
    name: 'Lada',
    aliases: ['VAZ', 'VAZ (Lada)', 'ВАЗ', 'Лада', 'Жигули', 'Zhiguli'],
    models: [
      '2101', '2102', '2103', '2104', '2105', '2106', '2107',
      ['2108', 'Samara (hatchback 2108)', 'Samara 2108'], ['2109', 'Samara (hatchback 2109)', 'Samara 2109'],
      ['21099', 'Samara (sedan 21099)', 'Самара (седан 21099)', 'Samara 21099'], '2110', '2112',
      ['2113', 'Samara 2 (hatchback 2113)'], ['2114', 'Samara 2 (hatchback 2114)'],
      ['2115', 'Samara 2 (sedan 2115)', 'Самара 2 (седан 2115)'],
      ['Niva', '2121', 'Niva Legend'], ['Niva 5-door', 'Niva 5-ta eshikli', '2131'], ['Niva 2123', '2123'],
      'Vesta', 'Vesta Sport', ['XRAY', 'Иксрей'], 'Largus', 'Kalina', 'Kalina 2', 'Priora', 'Granta',
    ],
  },
  {
    name: 'GAZ',
    aliases: ['ГАЗ'],
    models: [
      ['21 (Volga)', 'Volga 21'], ['24 (Volga)', 'Volga 24'], ['24011', 'Volga 24011'], ['2410 (Volga)', 'Volga 2410', '2410'],
      ['3102 (Volga)', 'Volga 3102', '3102'], ['31029 (Volga)', 'Volga 31029', '31029'], ['3110 (Volga)', 'Volga 3110', '3110'],
      ['31105 (Volga)', 'Volga 31105', '31105'], ['20 (Pobeda)', 'Pobeda'], '69',
      ['2705 (GAZel)', 'Gazelle 2705', '2705'], ['2834 (GAZel)', '2834'], ['32213 (GAZel)', 'Gazelle 32213', '32213'],
      ['3302 (GAZel Biznes)', '3302'], ['GAZel Biznes', 'Gazelle Business'],
      ['A21R22 (GAZel NEXT bortli)', 'A21R22', 'Gazelle Next'],
    ],
  },
  {
    name: 'Moskvich',
    aliases: ['Москвич', 'AZLK', 'АЗЛК', 'Moskvitch'],
    models: [
      '401', '407', '412', '434', ['2136 Kombi', 'AZLK 2136 Kombi', '2136'], ['2137 Kombi', 'AZLK 2137 Kombi', '2137'],
      ['2140', 'AZLK 2140'], '2141', '21412', 'Svyatogor',
    ],
  },
  { name: 'UAZ', aliases: ['УАЗ'], models: ['469', 'Patriot', 'Hunter', '452', '3151', '31512', '3159', '3303', '3962', '390902'] },
  { name: 'ZAZ', aliases: ['ЗАЗ'], models: ['Forza', ['1102 (Tavriya)', 'Tavriya', '1102'], '965', '968'] },
  { name: 'Izh', aliases: ['IJ', 'ИЖ'], models: [['2125 Kombi', '2125'], '2715'] },
  { name: 'LuAZ', aliases: ['ЛуАЗ'], models: ['967', '969M'] },
  { name: 'RAF', aliases: ['РАФ'], models: ['2203'] },
  {
    name: 'Kia',
    aliases: ['Киа', 'Кия'],
    // Sonet, Sportage, Rio and Cerato: sold new here, not in the data.
    models: ['Carnival', 'Seltos', 'Bongo', 'K5', 'Sorento', 'Forte', 'Optima', 'Stinger', 'Topic', 'Sonet', 'Sportage', 'Rio', 'Cerato'],
  },
  {
    name: 'Hyundai',
    aliases: ['Хёндай', 'Хендай', 'Хундай', 'Хюндай', 'Хэндай'],
    models: [
      'Tucson', 'Elantra', 'Santa Fe', 'Porter', 'Sonata', 'Starex', 'Grand Starex', 'Creta', 'Accent', 'i30', 'Palisade',
      'Grandeur', 'Avante', 'Galloper', 'Atos', 'Kona', 'Tuscani',
    ],
  },
  {
    name: 'Toyota',
    aliases: ['Тойота'],
    models: [
      ['Land Cruiser Prado', 'Prado', 'Ленд Крузер Прадо'], ['Land Cruiser', 'Ленд Крузер'], 'HiAce', 'Corolla', 'Sienna',
      'Camry', 'Alphard', 'Carina E', 'Estima', 'Yaris', 'Hilux', 'RAV4',
    ],
  },
  { name: 'Ford', aliases: ['Форд'], models: ['Transit', 'Courier', 'Granada', 'Orion', 'Sierra', 'Scorpio', 'Taurus', 'E 350', 'Escort'] },
  {
    name: 'Mercedes-Benz',
    aliases: ['Mercedes', 'Мерседес', 'Мерседес-Бенц', 'Benz', 'Мерс'],
    models: [
      '190', 'C 180', 'C 200', 'C 220', 'E 200', 'E 220', 'E 230', 'E 240', 'E 250', 'E 280', 'E 320', 'E 550', 'S 280',
      'S 320', 'S 350', 'S 400', 'S 550', 'S 600', 'ML 350', 'GLE 450', 'GLS 63 AMG', 'G 500', 'V-Class', 'Vito', 'Sprinter',
    ],
  },
  // 318i is the petrol 318.
  { name: 'BMW', aliases: ['БМВ'], models: ['316', ['318', '318i'], '320', '323', '324d', '325', '520', '523', '525', '528', '540', '735', 'M3', 'X7'] },
  {
    name: 'Nissan',
    aliases: ['Ниссан'],
    models: [
      'Sunny', 'Tiida', 'Maxima', 'Micra', 'Avenir', 'Teana', 'Patrol', 'Stanza', ['Sylphy EV', 'Sylphy EV Zero Emission'],
      'Altima', 'Leaf', 'Laurel',
    ],
  },
  { name: 'Opel', aliases: ['Опель'], models: ['Omega', 'Vectra', 'Combo', 'Rekord', 'Tigra', 'Vivaro', 'Zafira', 'Kadett', 'Senator'] },
  { name: 'Volkswagen', aliases: ['VW', 'Фольксваген'], models: ['Passat', 'Transporter', 'e-Bora', 'Taro', 'ID.4', 'ID.4 Crozz', 'Caddy'] },
  // Chana: Changan's former export name.
  {
    name: 'Changan',
    aliases: ['Chana', 'Чанган'],
    models: ['Alsvin', 'Benni', 'CX20', 'SC6406', 'SC6415', 'SC6443', 'Z-Shine', 'CS35 Plus', 'CS55 Plus'],
  },
  { name: 'Honda', aliases: ['Хонда'], models: ['M-NV', 'FCX Clarity', 'Odyssey', 'Accord', 'Elysion', 'Asty', 'CR-V'] },
  // Chazor and Song Plus DM-i: made in Jizzakh since 2024.
  {
    name: 'BYD',
    aliases: ['БИД', 'Build Your Dreams'],
    models: ['Song Plus EV', 'Song Pro EV', 'Yuan EV', 'Han EV', 'Tang EV', 'Chazor', 'Song Plus DM-i'],
  },
  { name: 'Audi', aliases: ['Ауди'], models: ['80', '90', '100', 'A6', 'A8'] },
  { name: 'Mazda', aliases: ['Мазда'], models: ['3', '6', '323', '626', 'AZ-Wagon'] },
  { name: 'Renault', aliases: ['Рено'], models: ['Trafic', 'Sandero', 'Arkana', '25'] },
  { name: 'Dongfeng', aliases: ['Dong Feng', 'Донгфенг', 'DFM'], models: ['EQ6380', ['DFSK K01H', 'K01H'], 'A30'] },
  { name: 'Tesla', aliases: ['Тесла'], models: ['Model 3', 'Model X', 'Model Y', 'Model S'] },
  { name: 'Land Rover', aliases: ['Ленд Ровер', 'Лэнд Ровер'], models: ['Range Rover', 'Range Rover Sport', 'Freelander'] },
  { name: 'Lexus', aliases: ['Лексус'], models: ['LX 570', 'ES 300', 'GS 300'] },
  { name: 'Fiat', aliases: ['Фиат'], models: ['Tempra', 'Kartal'] },
  { name: 'Tofas', aliases: ['Tofaş', 'Тофаш'], models: ['Dogan'] },
  { name: 'Neta', aliases: ['Нета', 'Hozon'], models: [['V', 'Neta V'], ['U Pro', 'Neta U Pro']] },
  { name: 'Hongqi', aliases: ['Hong Qi', 'Хунцы', 'Хончи'], models: ['E-HS3', 'E-QM5'] },
  { name: 'Volvo', aliases: ['Вольво'], models: ['940', 'S70'] },
  { name: 'JAC', aliases: ['Джак'], models: ['M4', ['J5', 'J5 (Heyue)']] },
  // Charada: the data's spelling of the Charade.
  { name: 'Daihatsu', aliases: ['Дайхатсу'], models: ['Cuore', ['Charade', 'Charada']] },
  { name: 'Hafei', aliases: ['Хафей'], models: ['Brio', 'Minyi', 'Lobo', 'Princip'] },
  { name: 'Mitsubishi', aliases: ['Мицубиси', 'Мицубиши'], models: ['Lancer', 'Pajero'] },
  { name: 'Isuzu', aliases: ['Исузу'], models: ['D-Max'] },
  { name: 'Skoda', aliases: ['Škoda', 'Шкода'], models: ['Kodiaq'] },
  { name: 'NIO', aliases: [], models: ['ES8', 'EC6'] },
  { name: 'Xpeng', aliases: [], models: ['P7'] },
  { name: 'Leapmotor', aliases: ['Leap Motor'], models: ['C11'] },
  { name: 'GAC', aliases: [], models: ['Aion V'] },
  { name: 'FAW', aliases: ['ФАВ'], models: ['Bestune T77'] },
  { name: 'Enovate', aliases: [], models: ['ME7'] },
  { name: 'Skywell', aliases: [], models: ['ET5'] },
  { name: 'Skyworth', aliases: [], models: ['EV6'] },
  { name: 'Weltmeister', aliases: [], models: ['EX5'] },
  { name: 'Polestar', aliases: [], models: ['2'] },
  { name: 'Brilliance', aliases: [], models: ['V5'] },
  { name: 'Jetour', aliases: ['Джетур'], models: ['X70 Plus', 'X90 Plus', 'Dashing'] },
  { name: 'Lincoln', aliases: ['Линкольн'], models: ['Navigator'] },
  { name: 'Buick', aliases: [], models: ['Velite 6'] },
  { name: 'Infiniti', aliases: [], models: ['FX35'] },
  { name: 'Hummer', aliases: ['Хаммер'], models: ['H3'] },
  { name: 'SsangYong', aliases: [], models: ['Estano'] },
  { name: 'Bugatti', aliases: [], models: ['Veyron'] },
  { name: 'Lancia', aliases: [], models: ['Beta'] },
  { name: 'Pontiac', aliases: [], models: ['Firebird'] },

  // Sold new in Uzbekistan since the data was scraped (local assembly or official dealers): no listings yet.
  { name: 'Chery', aliases: ['Чери'], models: ['Tiggo 2 Pro', 'Tiggo 4 Pro', 'Tiggo 7 Pro', 'Tiggo 8 Pro', 'Arrizo 8'] },
  { name: 'Haval', aliases: ['Хавал', 'Хавейл'], models: ['H6', 'Jolion', 'Dargo', 'M6'] },
  { name: 'Geely', aliases: ['Джили'], models: ['Coolray', 'Monjaro', 'Atlas', 'Emgrand'] },
  { name: 'Kaiyi', aliases: ['Кайи'], models: [] },
  { name: 'Omoda', aliases: ['Омода'], models: [] },
  { name: 'Jaecoo', aliases: [], models: [] },
  { name: 'Exeed', aliases: [], models: [] },
  { name: 'Tank', aliases: [], models: [] },
  { name: 'Li Auto', aliases: ['Lixiang', 'Li Xiang'], models: [] },
  { name: 'Zeekr', aliases: [], models: [] },
  { name: 'Voyah', aliases: [], models: [] },
];
