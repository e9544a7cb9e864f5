/**
 * How avtoelon.uz (Uzbek Latin), Russian sites and API clients (English) write fuel, gearbox, body,
 * drive and colour. Each code also matches its own name ("gas_petrol", "wet_asphalt"). Uzbek
 * Cyrillic forms (Бензин, Механика, Оқ) transliterate onto the Uzbek Latin entries and need no
 * entry of their own; Russian ones mostly do. Pure data.
 */
import type { BodyType, Colour, Drive, Fuel, Transmission } from '../../../schema/vehicle-codes';

export const FUEL_LABELS: Readonly<Record<Fuel, readonly string[]>> = {
  petrol: ['Benzin', 'Бензин', 'gasoline'],
  // avtoelon's "Gaz" (methane only) is a converted petrol car as well: no pure-gas cars are sold here.
  gas_petrol: [
    'Gaz-benzin', 'Gaz', 'Газ', 'Газ-бензин', 'Бензин-газ', 'gas-petrol', 'gas', 'Metan', 'Метан', 'Propan', 'Пропан',
    'Metan-benzin', 'Propan-benzin', 'Gaz-metan', 'Metan-propan', 'CNG', 'LPG',
  ],
  diesel: ['Dizel', 'Дизель', 'Дизел'],
  electric: ['Elektr', 'Электро', 'Электрический', 'Электричество', 'electro', 'EV', 'Elektromobil'],
  hybrid: ['Gibrid', 'Гибрид', 'plug-in hybrid', 'PHEV', 'HEV'],
};

export const TRANSMISSION_LABELS: Readonly<Record<Transmission, readonly string[]>> = {
  manual: ['Mexanika', 'Механика', 'Механическая', 'mechanical', 'MT', 'МКПП'],
  // Tiptronic is a torque-converter automatic with a manual mode.
  automatic: ['Avtomat', 'Автомат', 'Автоматическая', 'auto', 'AT', 'АКПП', 'Tiptronik', 'Типтроник', 'tiptronic'],
  robot: ['Robot', 'Робот', 'Роботизированная', 'AMT', 'DSG', 'DCT'],
  cvt: ['Variator', 'Вариатор'],
};

export const BODY_LABELS: Readonly<Record<BodyType, readonly string[]>> = {
  sedan: ['Sedan', 'Седан'],
  hatchback: ['Hatchback', 'Xetchbek', 'Хэтчбек', 'Хетчбек', 'hatch'],
  wagon: ['Universal', 'Универсал', 'estate', 'station wagon', 'Kombi'],
  // Yo‘ltanlamas: "off-road(er)".
  suv: ["Yo'ltanlamas", 'Krossover', 'Кроссовер', 'Внедорожник', 'crossover', 'off-road', 'jeep', 'Джип'],
  minivan: ['Miniven', 'Минивэн', 'Минивен', 'Mikroven', 'Микровэн', 'Микровен', 'microvan', 'MPV'],
  van: ['Furgon', 'Фургон', 'cargo van'],
  minibus: ['Mikroavtobus', 'Микроавтобус', 'bus', 'Avtobus', 'Автобус'],
  pickup: ['Pikup', 'Пикап', 'pick-up'],
  coupe: ['Kupe', 'Купе', 'coupé'],
  convertible: ['Kabriolet', 'Кабриолет', 'cabriolet', 'Rodster', 'Родстер', 'roadster'],
  limousine: ['Limuzin', 'Лимузин'],
};

export const DRIVE_LABELS: Readonly<Record<Drive, readonly string[]>> = {
  front: ['Oldi', 'Передний', 'Передний привод', 'front-wheel', 'FWD'],
  rear: ['Orqa', 'Задний', 'Задний привод', 'rear-wheel', 'RWD'],
  all: ["To'liq", 'Полный', 'Полный привод', 'all-wheel', 'full', 'AWD', '4WD', '4x4'],
};

export const COLOUR_LABELS: Readonly<Record<Colour, readonly string[]>> = {
  white: ['Oq', 'Белый'],
  black: ['Qora', 'Черный', 'Чёрный'],
  silver: ['Kumush rang', 'Kumush', 'Серебристый', 'Серебряный', 'Серебро'],
  grey: ['Kulrang', 'Серый', 'gray'],
  wet_asphalt: ['Mokriy asfalt', 'Мокрый асфальт'],
  dolphin: ['Delfin', 'Дельфин'],
  // Qaymoq: cream, the site's Russian "молочный цвет" (milky); Saxara (qum rang): sand.
  beige: [
    'Qaymoq rang', 'Qaymoq', 'Saxara (qum rang)', 'Saxara', 'Qum rang', 'Бежевый', 'Кремовый', 'Молочный цвет', 'Молочный', 'cream',
    'sand',
  ],
  blue: ["Ko'k", 'Синий'],
  // Ko‘k-xavorang and moviy: sky blue (the site's Russian "сине-голубой").
  light_blue: ["Ko'k-xavorang", 'Xavorang', 'Moviy', 'Голубой', 'Сине-голубой', 'sky blue'],
  // Pink has no code of its own: red is the nearest hue (8 rows of 2020; a typo match would say bronze).
  red: ['Qizil', 'Красный', 'Розовый', 'pink'],
  // Olcha: cherry; to‘q qizil: dark red.
  cherry: ['Olcha', "To'q qizil", 'Вишня', 'Вишневый', 'Вишнёвый', 'Бордовый', 'dark red', 'burgundy', 'maroon'],
  yellow: ['Sariq', 'Желтый', 'Жёлтый'],
  // To‘q sariq: dark yellow.
  orange: ["To'q sariq", 'Оранжевый'],
  green: ['Yashil', 'Зеленый', 'Зелёный', 'Sariq-yashil rang', 'Sariq-yashil', 'Жёлто-зеленый', 'Желто-зеленый', 'olive'],
  // Jigarrang: liver-coloured; sadaf-jigarrang: pearl brown (перламутрово-коричневый).
  brown: ['Jigar rang', 'Jigarrang', 'Sadaf-jigarrang', 'Коричневый', 'Перламутрово-коричневый'],
  gold: ['Oltin rang', 'Oltin', 'Золотой', 'Золотистый'],
  bronze: ['Bronza', 'Бронзовый', 'Бронза'],
  // Och binafsha: light violet.
  purple: ['Binafsha rang', 'Binafsha', 'Och binafsha rang', 'Фиолетовый', 'Сиреневый', 'violet', 'lilac'],
  turquoise: ['Feruza', 'Бирюзовый'],
  chameleon: ['Xameleon', 'Хамелеон'],
};
