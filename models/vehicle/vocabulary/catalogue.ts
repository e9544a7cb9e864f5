/**
 * The make and model catalogue: every make and model in data/vehicles (avtoelon.uz 2020, 2022 and
 * 2023) but the few the test lists as unresolved, plus the makes and models sold new in Uzbekistan
 * since, so that a request for one resolves to a known model with no market data rather than to
 * "unknown". Pure data; matching is in ./resolve.ts.
 *
 * A model is its canonical name, or [canonical, ...aliases]. Spellings that differ only in case,
 * spaces, punctuation, script (Кобальт / Cobalt) or a Roman numeral (Nexia II / Nexia 2) match
 * without an alias (./name-key.ts); aliases are for the rest: other names of one car, Russian forms
 * that transliteration does not reach (Шевроле, Трекер), and the site's own variants.
 * test/models/vehicle-vocabulary.test.ts checks that every name in the data resolves, or is one the
 * test lists as not a model (a site category, a name that is two cars).
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
  // Daewoo Nexia's successor and is listed with its years too. Optra: the Lacetti sedan's export name.
  // A bare "Nexia" under Chevrolet is left unresolved: the 2020 file has it for model years 1995–2020,
  // the Daewoo Nexia, the Nexia 2 and the Nexia 3 alike.
  {
    name: 'Chevrolet',
    aliases: ['Шевроле', 'Шевролет', 'Chevy'],
    models: [
      'Cobalt', 'Spark', ['Lacetti', 'Лачетти', 'Лацетти', 'Optra'], ['Gentra', 'Джентра', 'Жентра'], 'Nexia 2', 'Nexia 3',
      'Damas', 'Labo', 'Matiz', 'Matiz Best', 'Captiva', 'Malibu', 'Malibu 2', ['Tracker', 'Трекер'],
      ['Tracker 2', 'Трекер 2'], ['Tracker Premier', 'Трекер Премьер'], 'Epica', 'Equinox', 'Orlando',
      ['TrailBlazer', 'Трейлблейзер'], ['Cruze', 'Круз'], 'Niva', 'Tacuma', 'Aveo', ['Tahoe', 'Тахо'],
      ['Traverse', 'Траверс'], 'Suburban', ['Blazer', 'Блейзер'], 'Impala', 'Onix', 'Monza', 'Menlo', 'Evanda',
      'Camaro', 'Bolt', 'Lanos', 'Lumina', 'Caprice',
    ],
  },
  // The same plant's cars before 2008, and its 2015–2020 brand. Korando and Musso: SsangYong's cars
  // under the Daewoo badge (Daewoo owned SsangYong 1998–2000).
  {
    name: 'Daewoo',
    aliases: ['Дэу', 'Деу', 'Дэо', 'UzDaewoo'],
    models: [
      'Nexia', 'Nexia 2', ['Matiz', 'Matiz (Standart)'], 'Matiz Best', 'Matiz Creative', 'Tico', 'Damas', 'Labo',
      'Lacetti', ['Gentra', 'Джентра', 'Жентра'], 'Prince', 'Espero', 'Kalos', 'Leganza', 'Lanos', 'Magnus', 'Nubira',
      'Racer', 'Brougham', 'Korando', 'Musso',
    ],
  },
  {
    name: 'Ravon',
    aliases: ['Равон'],
    // Ravon made one Nexia, so "Ravon Nexia" is the R3.
    models: ['Gentra', ['Nexia R3', 'Nexia', 'R3'], 'R2', 'R4', 'Matiz'],
  },
  // The 2020 file writes the Samaras, the Niva variants and the Oka in Russian.
  {
    name: 'Lada',
    aliases: ['VAZ', 'VAZ (Lada)', 'ВАЗ', 'Лада', 'Жигули', 'Zhiguli'],
    models: [
      '2101', '2102', '2103', '2104', '2105', '2106', '2107',
      ['2108', 'Samara (hatchback 2108)', 'Samara 2108', 'Самара (хэтчбек 2108)'],
      ['2109', 'Samara (hatchback 2109)', 'Samara 2109', 'Самара (хэтчбек 2109)'],
      ['21099', 'Samara (sedan 21099)', 'Самара (седан 21099)', 'Samara 21099'], '2110', '2111', '2112',
      ['2113', 'Samara 2 (hatchback 2113)', 'Самара 2 (хэтчбек 2113)'], ['2114', 'Samara 2 (hatchback 2114)', 'Самара 2 (хэтчбек 2114)'],
      ['2115', 'Samara 2 (sedan 2115)', 'Самара 2 (седан 2115)'],
      ['Niva', '2121', 'Niva Legend'], ['Niva 5-door', 'Niva 5-ta eshikli', 'Нива 5-ти дверный', '2131'], ['Niva 2123', '2123'],
      ['Niva Pickup', 'Нива пикап', '2329'], ['Niva Bronto', 'Нива 1922 Бронто', 'Bronto'],
      'Vesta', 'Vesta Sport', ['XRAY', 'Иксрей'], ['Largus', 'Largus (фургон)'], 'Kalina', 'Kalina 2', 'Kalina NFR', 'Priora',
      'Granta', ['Oka', '1111', 'Ока 1111', '11113', 'Ока 11113'],
    ],
  },
  {
    name: 'GAZ',
    aliases: ['ГАЗ'],
    models: [
      ['21 (Volga)', 'Volga 21'], ['24 (Volga)', 'Volga 24'], ['24011', 'Volga 24011'], ['2410 (Volga)', 'Volga 2410', '2410'],
      ['3102 (Volga)', 'Volga 3102', '3102'], ['31029 (Volga)', 'Volga 31029', '31029'], ['3110 (Volga)', 'Volga 3110', '3110'],
      ['31105 (Volga)', 'Volga 31105', '31105'], ['20 (Pobeda)', 'Pobeda'], ['12 (ZiM)', 'ZiM'], ['13 (Chaika)', 'Chaika'], '69',
      'Siber',
      ['2705 (GAZel)', 'Gazelle 2705', '2705'], ['2834 (GAZel)', '2834'], ['32213 (GAZel)', 'Gazelle 32213', '32213'],
      ['32215 (GAZel)', '32215'], ['3302 (GAZel Biznes)', '3302'], ['33023 (GAZel Biznes)', '33023'], ['GAZel Biznes', 'Gazelle Business'],
      ['A21R22 (GAZel NEXT bortli)', 'A21R22', 'Gazelle Next', 'А21R22 (ГАЗель NEXT бортовой)'],
      ['A21R23 (GAZel NEXT izoterm)', 'A21R23'], ['A22R22 (GAZel 2-qatorli kabinali NEXT bortli)', 'A22R22'],
      ['A23R23 (GAZel NEXT bortli furgon)', 'A23R23', 'А23R23 (ГАЗель NEXT бортовой фургон)'], ['A64R42 (GAZel NEXT Citiline)', 'A64R42'],
    ],
  },
  {
    name: 'Moskvich',
    aliases: ['Москвич', 'AZLK', 'АЗЛК', 'Moskvitch'],
    models: [
      '401', '402', '403', '407', '408', '412', '434', ['2136 Kombi', 'AZLK 2136 Kombi', '2136'],
      ['2137 Kombi', 'AZLK 2137 Kombi', '2137'], ['2138', 'AZLK 2138'], ['2140', 'AZLK 2140'], '2141', '21412', 'Svyatogor',
    ],
  },
  {
    name: 'UAZ',
    aliases: ['УАЗ'],
    models: ['469', 'Patriot', 'Hunter', 'Pickup', '452', '3151', '31512', '31514', '31519', '3153', '3159', '31601', '3162', '3303', '3962', '390902'],
  },
  {
    name: 'ZAZ',
    aliases: ['ЗАЗ'],
    // Chance: the Lanos as ZAZ built it.
    models: ['Forza', ['1102 (Tavriya)', 'Tavriya', '1102'], ['1103 (Slavuta)', 'Slavuta', '1103'], ['1105 (Dana)', 'Dana', '1105'], '965', '966', '968', 'Chance'],
  },
  { name: 'Izh', aliases: ['IJ', 'ИЖ'], models: [['2125 Kombi', '2125'], '2715', '2717'] },
  { name: 'LuAZ', aliases: ['ЛуАЗ'], models: ['967', '969M'] },
  { name: 'RAF', aliases: ['РАФ'], models: ['2203'] },
  // Sedona: the Carnival's export name; Credos: the Clarus at home; Sportage Grand: the long first Sportage.
  {
    name: 'Kia',
    aliases: ['Киа', 'Кия'],
    models: [
      ['Carnival', 'Sedona'], 'Seltos', 'Bongo', 'K5', 'Sorento', 'Forte', 'Optima', 'Stinger', 'Topic', 'Sonet',
      ['Sportage', 'Sportage Grand'], 'Rio', 'Cerato', ['Clarus', 'Credos', 'Credos II'], 'Enterprise', 'Niro', 'Pregio', 'Sephia',
      'Soul', 'Telluride', 'Visto', 'K8', 'K3', 'EV6',
    ],
  },
  // Azera: the Grandeur's export name; Tiburon: the Tuscani's; H-1: the Starex's (both generations).
  {
    name: 'Hyundai',
    aliases: ['Хёндай', 'Хендай', 'Хундай', 'Хюндай', 'Хэндай'],
    models: [
      'Tucson', 'Elantra', 'Santa Fe', 'Porter', 'Sonata', 'Starex', 'Grand Starex', 'Creta', 'Accent', 'i30', 'Palisade',
      ['Grandeur', 'Azera'], 'Avante', 'Galloper', 'Atos', 'Kona', ['Tuscani', 'Tiburon'], 'H-1', 'Equus', 'Genesis', 'Getz', 'Grace',
      'Ioniq', 'Matrix', 'Solaris', 'Veracruz', 'XG', 'i20', 'Staria',
    ],
  },
  // Previa: the Estima's export name.
  {
    name: 'Toyota',
    aliases: ['Тойота'],
    models: [
      ['Land Cruiser Prado', 'Prado', 'Ленд Крузер Прадо'], ['Land Cruiser', 'Ленд Крузер'], 'HiAce', 'Corolla', 'Sienna',
      'Camry', 'Alphard', 'Carina E', ['Estima', 'Previa'], 'Yaris', 'Hilux', 'RAV4', 'Avalon', 'Avensis', 'Carina', 'Carina II',
      ['Corona Mark II', 'Mark II'], 'Noah', 'Opa', 'Rush', 'Town Ace', 'Venza', 'Highlander', 'bZ4X',
    ],
  },
  {
    name: 'Ford',
    aliases: ['Форд'],
    models: [
      'Transit', 'Courier', 'Granada', 'Orion', 'Sierra', 'Scorpio', 'Taurus', 'E 350', 'Escort', 'Aerostar', 'Bronco', 'Explorer',
      'Focus', 'Mondeo', 'Mustang', 'Taunus', 'Tempo',
    ],
  },
  // Model names as the site lists them (E 200), and the families a request may name (E-Class).
  {
    name: 'Mercedes-Benz',
    aliases: ['Mercedes', 'Мерседес', 'Мерседес-Бенц', 'Benz', 'Мерс'],
    models: [
      '190', 'C 180', 'C 200', 'C 220', 'E 200', 'E 220', 'E 230', 'E 240', 'E 250', 'E 280', 'E 320', 'E 550', 'S 280',
      'S 320', 'S 350', 'S 400', 'S 550', 'S 600', 'ML 350', 'GLE 450', 'GLS 63 AMG', 'G 500', 'V-Class', 'Vito', 'Sprinter',
      'A 140', 'A 160', 'A 190', 'A 210', 'C 230', 'C 240', 'C 300', 'C 320', 'CLK 240', 'CLS 350', 'E 260', 'E 270', 'E 300',
      'E 63 AMG', 'G 63 AMG', 'GL 400', 'GL 450', 'GLC 350', 'GLC Coupe 250', 'GLE 250d', ['GLE 63 AMG Coupe', 'AMG 63 GLE Coupe'],
      'GLS 400', 'GLS 500', 'ML 320', 'ML 500', 'ML 55 AMG', 'S 220', 'S 260', 'S 300', 'S 450', 'S 500', 'S 560', 'S 63 AMG',
      'SL 500', 'SL 600', 'SLK 200', 'SLK 300', 'SLK 350', 'V 200', 'V 250', 'V 280', 'AMG GT', 'Citan', 'Vaneo', 'Viano',
      'C-Class', 'E-Class', 'S-Class', ['G-Class', 'Gelandewagen', 'Гелендваген'], ['GLE-Class', 'GLE'], ['GLS-Class', 'GLS'],
      'GLA-Class', 'CLK-Class', 'CE-Class',
    ],
  },
  // 318i is the petrol 318.
  {
    name: 'BMW',
    aliases: ['БМВ'],
    models: [
      '316', ['318', '318i'], '320', '323', '324d', '325', '328', '435', '518', '520', '523', '524', '525', '528', '530', '535', '540',
      '650', '728', '730', '735', '740', 'M3', 'M5', 'X5', 'X6', 'X7', 'Z4',
    ],
  },
  // March: the Micra at home. Almera and Sentra: sold new here.
  {
    name: 'Nissan',
    aliases: ['Ниссан'],
    models: [
      'Sunny', 'Tiida', 'Maxima', ['Micra', 'March'], 'Avenir', 'Teana', 'Patrol', 'Stanza', ['Sylphy EV', 'Sylphy EV Zero Emission'],
      'Altima', 'Leaf', 'Laurel', '100NX', 'Bluebird', 'Caravan', 'Cherry', 'Juke', 'Murano', 'Navara', 'Qashqai', 'Terrano',
      'X-Trail', 'Almera', 'Sentra',
    ],
  },
  {
    name: 'Opel',
    aliases: ['Опель'],
    models: [
      'Omega', 'Vectra', 'Combo', 'Rekord', 'Tigra', 'Vivaro', 'Zafira', 'Kadett', 'Senator', 'Ascona', 'Astra', 'Calibra', 'Commodore',
      'Insignia', 'Meriva',
    ],
  },
  {
    name: 'Volkswagen',
    aliases: ['VW', 'Фольксваген'],
    models: ['Passat', 'Transporter', 'e-Bora', 'Taro', 'ID.4', 'ID.4 Crozz', 'Caddy', 'Caravelle', 'Golf', 'Jetta', 'Passat CC', 'Polo', 'Touareg'],
  },
  // Chana: Changan's former export name. Its EV brand Deepal is a make of its own (below).
  {
    name: 'Changan',
    aliases: ['Chana', 'Чанган'],
    models: [
      'Alsvin', 'Benni', 'CX20', 'SC6406', 'SC6415', 'SC6443', 'SC6463', 'SC6483', 'Z-Shine', 'CM-8', 'Raeton', 'Star Truck',
      'CS35 Plus', 'CS55 Plus', 'CS75 Plus', 'UNI-K', 'UNI-V', 'Eado',
    ],
  },
  {
    name: 'Honda',
    aliases: ['Хонда'],
    models: [
      'M-NV', 'FCX Clarity', 'Odyssey', 'Accord', 'Elysion', 'Asty', 'CR-V', 'City', 'Civic', ['Ballade', 'Civic Ballade'], 'Integra',
      ['Stepwgn', 'Step WGN'],
    ],
  },
  // Chazor and Song Plus DM-i: made in Jizzakh since 2024 (the Chazor is the Qin Plus DM-i for this
  // market; the Qin Plus stays apart for imports, the EV among them). The family names (Song Plus, Han)
  // stand beside the power-train names the data has (Song Plus EV, Han EV).
  {
    name: 'BYD',
    aliases: ['БИД', 'Build Your Dreams'],
    models: [
      'Song Plus EV', 'Song Pro EV', 'Yuan EV', 'Han EV', 'Tang EV', 'Chazor', 'Song Plus DM-i', 'Song Plus', 'Song Pro', 'Han',
      'Tang', 'Seal', 'Qin Plus', ['Yuan Plus', 'Atto 3'], 'Destroyer 05', 'Dolphin', 'Leopard 5',
    ],
  },
  { name: 'Audi', aliases: ['Ауди'], models: ['80', '90', '100', '200', 'A3', 'A4', 'A5', 'A6', 'A8', 'Q7'] },
  { name: 'Mazda', aliases: ['Мазда'], models: ['3', '6', '323', '616', '626', '929', 'AZ-Wagon', 'CX-5', 'CX-7', 'CX-9', 'MS-6', 'RX-8'] },
  // SM5: Renault Samsung's, listed under "Renault Samsung", which resolves to Renault.
  { name: 'Renault', aliases: ['Рено'], models: ['Trafic', 'Sandero', 'Arkana', '25', '21', 'Kangoo', 'SM5'] },
  {
    name: 'Dongfeng',
    aliases: ['Dong Feng', 'Донгфенг', 'DFM'],
    models: ['EQ6380', ['DFSK K01H', 'K01H'], 'A30', 'AX7', 'H30 Cross', 'S30', 'S60', 'Shine', 'Shine Max', 'Huge'],
  },
  { name: 'Tesla', aliases: ['Тесла'], models: ['Model 3', 'Model X', 'Model Y', 'Model S'] },
  { name: 'Land Rover', aliases: ['Ленд Ровер', 'Лэнд Ровер'], models: ['Range Rover', 'Range Rover Sport', 'Freelander'] },
  {
    name: 'Lexus',
    aliases: ['Лексус'],
    models: [
      'LX 570', 'ES 300', 'GS 300', 'GS 430', 'GS 460', 'GS-Series', 'GX 460', 'IS 250', 'IS 300', 'LS 460', 'NX 300h', 'NX-Series',
      'RX 330', 'RX 350', 'RX 400h', 'RX 450h',
    ],
  },
  { name: 'Fiat', aliases: ['Фиат'], models: ['Tempra', 'Kartal', '124', '126', '127', '131', '500', 'Barchetta', 'Croma', 'Doblo'] },
  { name: 'Tofas', aliases: ['Tofaş', 'Тофаш'], models: ['Dogan'] },
  { name: 'Neta', aliases: ['Нета', 'Hozon'], models: [['V', 'Neta V'], ['U Pro', 'Neta U Pro']] },
  { name: 'Hongqi', aliases: ['Hong Qi', 'Хунцы', 'Хончи'], models: ['E-HS3', 'E-QM5'] },
  { name: 'Volvo', aliases: ['Вольво'], models: ['300 Series', '440', '740', '760', '850', '940', '960', 'S70', 'S80', 'XC60'] },
  {
    name: 'JAC',
    aliases: ['Джак'],
    models: ['M4', ['J5', 'J5 (Heyue)'], ['J3', 'J3 (Tongyue,Tojoy)', 'Tojoy'], ['J6', 'J6 (Heyue RS)'], 'S2', 'S3', ['S5', 'S5 (Eagle)'], 'JS4', 'JS6', 'J7', 'T6', 'T8'],
  },
  // Charada: the data's spelling of the Charade.
  { name: 'Daihatsu', aliases: ['Дайхатсу'], models: ['Cuore', ['Charade', 'Charada']] },
  { name: 'Hafei', aliases: ['Хафей'], models: ['Brio', 'Minyi', 'Lobo', 'Princip', 'Saibao', 'Saima'] },
  { name: 'Mitsubishi', aliases: ['Мицубиси', 'Мицубиши'], models: ['Lancer', 'Pajero', 'Colt', 'Eclipse', 'Galant', 'Mirage', 'Space Wagon', 'Zinger'] },
  { name: 'Isuzu', aliases: ['Исузу'], models: ['D-Max', ['Pickup', 'Pick Up']] },
  { name: 'Skoda', aliases: ['Škoda', 'Шкода'], models: ['Kodiaq', 'Favorit', 'Felicia', 'Octavia'] },
  { name: 'NIO', aliases: [], models: ['ES8', 'EC6'] },
  { name: 'Xpeng', aliases: [], models: ['P7', 'G3'] },
  { name: 'Leapmotor', aliases: ['Leap Motor'], models: ['C11'] },
  { name: 'GAC', aliases: [], models: ['Aion V', 'Aion S', 'Aion Y', 'GS3', 'GS4', 'GS8', 'GN8', 'Emkoo', 'Empow', 'Emzoom'] },
  { name: 'FAW', aliases: ['ФАВ'], models: ['Bestune T77'] },
  { name: 'Enovate', aliases: [], models: ['ME7'] },
  { name: 'Skywell', aliases: [], models: ['ET5'] },
  { name: 'Skyworth', aliases: [], models: ['EV6'] },
  { name: 'Weltmeister', aliases: [], models: ['EX5'] },
  { name: 'Polestar', aliases: [], models: ['2'] },
  { name: 'Brilliance', aliases: [], models: ['V5', 'H530'] },
  { name: 'Jetour', aliases: ['Джетур'], models: ['X70 Plus', 'X90 Plus', 'Dashing', 'X70', 'X50', ['T2', 'Traveller']] },
  { name: 'Lincoln', aliases: ['Линкольн'], models: ['Navigator', 'Aviator', 'Continental', 'MKX', 'Town Car'] },
  { name: 'Buick', aliases: [], models: ['Velite 6'] },
  { name: 'Infiniti', aliases: [], models: ['FX35', 'EX35', 'QX56'] },
  { name: 'Hummer', aliases: ['Хаммер'], models: ['H3'] },
  { name: 'SsangYong', aliases: [], models: ['Estano', 'Istana', 'Korando', 'Rodius', 'Chairman'] },
  { name: 'Bugatti', aliases: [], models: ['Veyron'] },
  { name: 'Lancia', aliases: [], models: ['Beta'] },
  { name: 'Pontiac', aliases: [], models: ['Firebird', 'Solstice', 'Sunbird'] },
  // Makes only the 2020 file has, one to a few listings each.
  { name: 'Foton', aliases: ['Фотон'], models: ['Alpha', 'View', 'View CS2', 'View L', 'Tunland'] },
  { name: 'Chrysler', aliases: ['Крайслер'], models: ['300C', 'Pacifica', 'Voyager'] },
  { name: 'Dodge', aliases: ['Додж'], models: ['Caravan', 'Dakota'] },
  { name: 'Jeep', aliases: [], models: ['Cherokee', 'Grand Cherokee', 'CJ'] },
  { name: 'Peugeot', aliases: ['Пежо'], models: ['206', '605', '607', '807'] },
  { name: 'Porsche', aliases: ['Порше'], models: ['Panamera'] },
  { name: 'Cadillac', aliases: ['Кадиллак'], models: ['CTS', 'Escalade'] },
  { name: 'Great Wall', aliases: [], models: ['Hover', 'Hover H3'] },
  { name: 'Lifan', aliases: ['Лифан'], models: ['620'] },
  { name: 'King Long', aliases: [], models: ['Kingo', 'Hiase'] },
  { name: 'Seat', aliases: [], models: ['Cordoba'] },
  { name: 'Smart', aliases: [], models: ['ForTwo'] },
  { name: 'Rolls-Royce', aliases: [], models: ['Phantom'] },
  { name: 'Maserati', aliases: [], models: ['Ghibli'] },
  { name: 'Mini', aliases: [], models: ['Hatch', 'Coupe', 'Cabrio'] },
  { name: 'Rover', aliases: [], models: ['Mini'] },
  { name: 'ARO', aliases: [], models: ['10 Series'] },
  { name: 'Iveco', aliases: [], models: ['Daily'] },
  { name: 'Jaguar', aliases: [], models: ['XJ'] },
  { name: 'Saab', aliases: [], models: ['9000'] },
  { name: 'Dacia', aliases: [], models: ['Logan'] },
  { name: 'Citroen', aliases: ['Citroën', 'Ситроен'], models: ['XM'] },
  { name: 'Plymouth', aliases: [], models: ['Voyager'] },
  { name: 'Alfa Romeo', aliases: [], models: ['4C'] },
  { name: 'Ferrari', aliases: [], models: ['208'] },
  { name: 'Eagle', aliases: [], models: ['Vision'] },
  { name: 'Arcfox', aliases: [], models: ['Lite'] },
  { name: 'Huanghai', aliases: [], models: ['Plutus'] },
  { name: 'Zastava', aliases: [], models: ['Yugo'] },

  // Sold new in Uzbekistan since the data was scraped (local assembly or official dealers): few or no listings.
  {
    name: 'Chery',
    aliases: ['Чери'],
    models: ['Tiggo 2 Pro', 'Tiggo 4', 'Tiggo 4 Pro', 'Tiggo 7', 'Tiggo 7 Pro', 'Tiggo 8', 'Tiggo 8 Pro', 'Arrizo 6', 'Arrizo 8'],
  },
  { name: 'Haval', aliases: ['Хавал', 'Хавейл'], models: ['H6', 'Jolion', 'Dargo', 'M6', 'F7', 'F7x', 'H2', 'H9'] },
  { name: 'Geely', aliases: ['Джили'], models: ['Coolray', 'Monjaro', 'Atlas', 'Atlas Pro', 'Emgrand', 'Tugella', 'CK'] },
  { name: 'Kaiyi', aliases: ['Кайи'], models: ['E5', 'X3', 'X3 Pro', ['X7', 'X7 Kunlun']] },
  { name: 'Omoda', aliases: ['Омода'], models: [['C5', 'Omoda 5'], 'S5', 'E5', 'C7'] },
  { name: 'Jaecoo', aliases: [], models: ['J5', 'J7', 'J8'] },
  { name: 'Exeed', aliases: [], models: ['LX', 'TXL', 'VX', 'RX'] },
  { name: 'Tank', aliases: [], models: ['300', '400', '500', '700'] },
  { name: 'Li Auto', aliases: ['Lixiang', 'Li Xiang'], models: ['L6', 'L7', 'L8', 'L9', ['One', 'Li One'], 'Mega'] },
  { name: 'Zeekr', aliases: [], models: ['001', '007', '009', 'X', '7X'] },
  { name: 'Voyah', aliases: [], models: ['Free', 'Dreamer', ['Passion', 'Zhuiguang'], 'Courage'] },
  // Changan's EV brand, sold here under its own name.
  { name: 'Deepal', aliases: ['Changan Deepal', 'Shenlan'], models: ['S07', 'SL03', 'S05', 'G318', 'L07'] },
  { name: 'Avatr', aliases: [], models: ['07', '11', '12'] },
  { name: 'Soueast', aliases: ['South East'], models: ['DX3', 'DX7', 'DX8S', 'S07', 'S09'] },
];
