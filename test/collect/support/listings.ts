/**
 * Listings for the fake sites, made from the documented shapes (docs/COLLECTING.md): numbered, so a
 * test knows exactly what each run should see. No real listing data is used.
 */
import type { OlxOffer, UyborListing } from '../../../models/ingest/collectors';

const DISTRICTS = [
  { ru: 'Чиланзарский район', lat: 41.2856, lng: 69.2034 },
  { ru: 'Юнусабадский район', lat: 41.3405, lng: 69.286 },
  { ru: 'Мирабадский район', lat: 41.2964, lng: 69.2797 },
  { ru: 'Яккасарайский район', lat: 41.2886, lng: 69.2567 },
  { ru: 'Мирзо-Улугбекский район', lat: 41.326, lng: 69.334 },
  { ru: 'Шайхантахурский район', lat: 41.325, lng: 69.23 },
];

/** A resale flat whose fields are all derived from `n`. */
export function uyborFlat(n: number, priceUsd = 40_000 + (n % 50) * 1_000): UyborListing {
  const rooms = 1 + (n % 4);
  const district = DISTRICTS[n % DISTRICTS.length];
  return {
    id: 1_000_000 + n,
    category: { id: 7 },
    price: priceUsd,
    priceCurrency: 'usd',
    priceType: 'all',
    room: String(rooms),
    square: 25 + rooms * 15 + (n % 7),
    floor: 1 + (n % 9),
    floorTotal: 9,
    isNewBuilding: n % 3 === 0,
    repair: 'evro',
    foundation: 'kirpich',
    lat: district.lat,
    lng: district.lng,
    address: 'Ташкент',
    district: { id: 100 + (n % DISTRICTS.length), name: { ru: district.ru } },
    createdAt: '2026-05-20T08:00:00Z',
    upAt: null,
    isActive: true,
  };
}

/** An olx offer of a flat whose fields are derived from `n`. */
export function olxFlat(n: number, priceUsd = 40_000 + (n % 50) * 1_000): OlxOffer {
  const rooms = 1 + (n % 4);
  const district = DISTRICTS[n % DISTRICTS.length];
  return {
    id: 70_000_000 + n,
    url: `https://www.olx.uz/d/obyavlenie/ID${70_000_000 + n}.html`,
    created_time: '2026-05-20T10:00:00+05:00',
    pushup_time: null,
    status: 'active',
    business: n % 2 === 0,
    category: { id: 13 },
    params: [
      { key: 'price', value: { value: priceUsd, currency: 'UYE' } },
      { key: 'number_of_rooms', value: { key: String(rooms), label: String(rooms) } },
      { key: 'total_area', value: { key: String(25 + rooms * 15 + (n % 7)) } },
      { key: 'floor', value: { key: String(1 + (n % 9)) } },
      { key: 'total_floors', value: { key: '9' } },
    ],
    location: { city: { id: 4, name: 'Ташкент' }, district: { name: district.ru } },
    map: { lat: district.lat + 0.02, lon: district.lng - 0.02, radius: 3 },
  };
}

export interface FakeCar {
  id: number;
  brand: string;
  model: string;
  year: number;
  priceUsd: number;
  mileageKm: number;
  status?: string;
}

export function fakeCar(n: number): FakeCar {
  const cars = [
    { brand: 'Chevrolet', model: 'Cobalt' },
    { brand: 'Chevrolet', model: 'Spark' },
    { brand: 'Ravon', model: 'R4' },
    { brand: 'Chevrolet', model: 'Gentra' },
  ];
  return { id: 6_000_000 + n, ...cars[n % cars.length], year: 2012 + (n % 12), priceUsd: 6_000 + (n % 40) * 250, mileageKm: 10_000 + n * 37 };
}

/** One avtoelon search page in the recorded page's markup (card script, card, pager). */
export function avtoelonSearchHtml(cars: readonly FakeCar[], page: number, lastPage: number, total: number): string {
  const cards = cars.map((car) => {
    const script = {
      section: 'auto', categoryString: 'auto.car', attributes: { model: car.model, brand: car.brand },
      lastUpdate: '2026-06-01T10:00:00+05:00', status: car.status ?? 'live', unitPrice: car.priceUsd, url: `https://avtoelon.uz/a/show/${car.id}`,
    };
    return `<script type="text/javascript">
    listing.items.push(${JSON.stringify(script).replace(/\//g, '\\/')});
</script>
<div class="row list-item a-elem" data-id="${car.id}" id="advert-${car.id}">
  <div class="a-info-side col-right-list"><div class="a-info-top list-title"><div><span class="a-el-info-title">
    <a href="/a/show/${car.id}" class="js__advert-link">${car.brand} ${car.model}, 2 позиция</a></span></div>
    <span class="price"><span>Цена: </span>${car.priceUsd}&nbsp;y.e.</span></div>
  <div class="a-info-mid"><div class="desc"><span class="year">${car.year}&nbsp;г.,</span>
    1.5 л, Бензин, ${car.mileageKm.toLocaleString('ru-RU').replace(/\u00a0/g, ' ')} км, Седан, КПП Механика, Кондиционер</div></div>
  <div class="a-info-bot"><div class="a-info-text"><div class="a-info-text__region">Ташкент</div></div></div></div>
</div>`;
  });
  const pager = Array.from({ length: lastPage }, (_, i) => i + 1)
    .map((p) => (p === page ? `<li><span class="active">${p}</span></li>` : `<li><span><a href="/avto/?page=${p}">${p}</a></span></li>`))
    .join('\n');
  return `<!doctype html><html><head><script type="application/ld+json">{"offers":{"@type":"AggregateOffer","offerCount":"${total}"}}</script></head>
<body><script>var listing = {items: []};</script>
${cards.join('\n')}
<div class="paginator clearfix"><div class="pager"><ul>${pager}</ul></div></div>
</body></html>`;
}
