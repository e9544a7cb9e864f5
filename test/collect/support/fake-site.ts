/**
 * A local fake of the three sites on one ephemeral port, with their paging rules and errors:
 * - uybor `GET /api/v1/listings?category__eq&page&limit`: limit over 100 is 400; `{total, results}`;
 *   a page past the last is empty.
 * - olx `GET /api/v1/offers/?offset&limit&category_id&filter_float_price:from/to`: limit over 50 or
 *   offset over 1,000 is 400; `{data, metadata{total_elements}, links{next}}`;
 *   `GET /api/v1/offers/{id}/` is 410 for a deleted offer.
 * - avtoelon `GET /avto/?page=N`: 20 cards a page; a page past the last redirects (302) to the first.
 * - `/robots.txt` as given.
 * A test changes the listings between runs, and injects faults (a status with headers for the next
 * requests matching a path) and a delay. Every request is logged with its User-Agent.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OlxOffer, UyborListing } from '../../../models/ingest/collectors';
import { avtoelonSearchHtml, type FakeCar } from './listings';

export interface Fault {
  /** Applies to requests whose path and query contain this. */
  match: string;
  /** 0: the connection is dropped without an answer. */
  status: number;
  headers?: Record<string, string>;
  /** How many matching requests get it. */
  times: number;
}

export interface LoggedRequest {
  path: string;
  userAgent: string | undefined;
  at: number;
}

export const AVTOELON_PAGE_SIZE = 20;

export class FakeSite {
  uybor: UyborListing[] = [];
  olx: OlxOffer[] = [];
  /** olx offers answering 410 at their detail address. */
  olxDeleted = new Set<string>();
  /** olx offers no longer in search answers whose detail address still answers (archived ones). */
  olxArchived: OlxOffer[] = [];
  cars: FakeCar[] = [];
  /** Cars no longer in search whose detail page says archived, and those whose page answers 410. */
  carsArchived: FakeCar[] = [];
  carsDeleted = new Set<string>();
  robotsTxt: string | null = 'User-agent: *\nDisallow: /admin/\nDisallow: */api/v1/offers/metadata/\n';
  faults: Fault[] = [];
  delayMs = 0;
  readonly requests: LoggedRequest[] = [];
  private server: Server | null = null;

  get baseUrl(): string {
    const address = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      void this.handle(request, response).catch((error: Error) => {
        response.statusCode = 500;
        response.end(error.message);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  countRequests(fragment: string): number {
    return this.requests.filter((r) => r.path.includes(fragment)).length;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = request.url ?? '/';
    this.requests.push({ path, userAgent: request.headers['user-agent'], at: Date.now() });
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const fault = this.faults.find((f) => f.times > 0 && path.includes(f.match));
    if (fault) {
      fault.times--;
      if (fault.status === 0) {
        request.socket.destroy(); // no answer at all
        return;
      }
      response.writeHead(fault.status, fault.headers ?? {});
      response.end();
      return;
    }
    const url = new URL(path, 'http://fake');
    const query = url.searchParams;
    if (url.pathname === '/robots.txt') {
      if (this.robotsTxt === null) return this.send(response, 404, 'text/plain', 'not found');
      return this.send(response, 200, 'text/plain', this.robotsTxt);
    }
    if (url.pathname === '/api/v1/listings') return this.uyborPage(response, query);
    const olxDetail = /^\/api\/v1\/offers\/(\d+)\/$/.exec(url.pathname);
    if (olxDetail) {
      if (this.olxDeleted.has(olxDetail[1])) return this.send(response, 410, 'application/json', '{"error":"gone"}');
      const offer = [...this.olx, ...this.olxArchived].find((o) => String(o.id) === olxDetail[1]);
      return offer ? this.json(response, { data: offer }) : this.send(response, 404, 'application/json', '{}');
    }
    if (url.pathname === '/api/v1/offers/') return this.olxPage(response, query);
    if (url.pathname === '/avto/') return this.avtoelonPage(response, query);
    const carDetail = /^\/a\/show\/(\d+)$/.exec(url.pathname);
    if (carDetail) return this.avtoelonDetail(response, carDetail[1]);
    this.send(response, 404, 'text/plain', 'not found');
  }

  private uyborPage(response: ServerResponse, query: URLSearchParams): void {
    const limit = Number(query.get('limit') ?? 20);
    const page = Number(query.get('page') ?? 1);
    if (limit > 100 || page < 1) return this.send(response, 400, 'application/json', '{"message":"limit must be ≤ 100"}');
    const category = Number(query.get('category__eq'));
    const matching = this.uybor.filter((l) => (l.category?.id ?? l.categoryId) === category);
    this.json(response, { total: matching.length, results: matching.slice((page - 1) * limit, page * limit) });
  }

  private olxPage(response: ServerResponse, query: URLSearchParams): void {
    const limit = Number(query.get('limit') ?? 40);
    const offset = Number(query.get('offset') ?? 0);
    if (limit > 50 || offset > 1000) return this.send(response, 400, 'application/json', '{"error":{"status":400,"title":"Invalid offset"}}');
    const category = Number(query.get('category_id'));
    const from = Number(query.get('filter_float_price:from') ?? 0);
    const to = query.has('filter_float_price:to') ? Number(query.get('filter_float_price:to')) : Infinity;
    const matching = this.olx.filter((o) => {
      const price = Number(o.params?.find((p) => p.key === 'price')?.value?.value ?? 0);
      return o.category?.id === category && price >= from && price <= to;
    });
    const data = matching.slice(offset, offset + limit);
    const more = offset + limit < matching.length;
    this.json(response, {
      data,
      metadata: { total_elements: matching.length, visible_total_count: Math.min(matching.length, 1000) },
      links: more ? { next: { href: `/api/v1/offers/?offset=${offset + limit}&limit=${limit}` } } : {},
    });
  }

  private avtoelonPage(response: ServerResponse, query: URLSearchParams): void {
    const page = Number(query.get('page') ?? 1);
    const lastPage = Math.max(1, Math.ceil(this.cars.length / AVTOELON_PAGE_SIZE));
    if (page > lastPage) {
      response.writeHead(302, { location: '/avto/' });
      response.end();
      return;
    }
    const cars = this.cars.slice((page - 1) * AVTOELON_PAGE_SIZE, page * AVTOELON_PAGE_SIZE);
    this.send(response, 200, 'text/html; charset=utf-8', avtoelonSearchHtml(cars, page, lastPage, this.cars.length));
  }

  /** A detail page in the recorded page's shape: the inline `var data` with its advert. */
  private avtoelonDetail(response: ServerResponse, id: string): void {
    if (this.carsDeleted.has(id)) return this.send(response, 410, 'text/html', '<h1>Объявление удалено</h1>');
    const live = this.cars.find((c) => String(c.id) === id);
    const archived = this.carsArchived.find((c) => String(c.id) === id);
    const car = live ?? archived;
    if (!car) return this.send(response, 404, 'text/html', '<h1>Not found</h1>');
    const advert = { id: car.id, type: 0, storage: live ? 'live' : 'archive', price: car.priceUsd, title: `${car.brand} ${car.model}`, isLive: Boolean(live) };
    this.send(response, 200, 'text/html; charset=utf-8', `<html><head><script>var data = {"language":"ru","advert":${JSON.stringify(advert)},"currency":1};</script></head>
<body><h1 class="a-title__text">${car.brand} ${car.model}</h1><span class="a-price__text">${car.priceUsd} y.e.</span>
<dl class="clearfix dl-horizontal description-params"><dt class="value-title">Год</dt><dd class="value clearfix">${car.year}</dd></dl></body></html>`);
  }

  private json(response: ServerResponse, body: unknown): void {
    this.send(response, 200, 'application/json', JSON.stringify(body));
  }

  private send(response: ServerResponse, status: number, type: string, body: string): void {
    response.writeHead(status, { 'content-type': type });
    response.end(body);
  }
}

/** A config for a run against the fake site: no politeness delay unless asked, a fresh folder. */
export function fakeSiteConfig(baseUrl: string, directory: string, overrides: Partial<import('../../../platform/collect').CollectConfig> = {}) {
  return {
    directory,
    minIntervalMs: 0,
    maxRequestsPerRun: 10_000,
    userAgent: 'TestCollector/1.0 (+tests)',
    backoffBaseMs: 1000,
    backoffCapMs: 8000,
    maxRetriesPerPage: 5,
    baseUrls: { uybor: baseUrl, olx: baseUrl, avtoelon: baseUrl },
    dailyAtUtc: '02:30',
    ...overrides,
  };
}
