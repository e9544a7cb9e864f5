/**
 * REST responses checked against the OpenAPI document the gateway publishes (GET /openapi.json,
 * generated in process by gateway/ops/openapi.ts): the route by its path template
 * (/api/batch/{id}), the status (exact, then its class 4XX, then default), the Content-Type among
 * the documented media types, and the body against the documented schema (JSON; NDJSON line by
 * line; text bodies as strings).
 *
 * The test stack (./stack.ts) runs every response of `stack.post` and `stack.fetch` through
 * `assertDocumentedResponse`, so a REST test fails when the service answers something its
 * document does not say. Routes the document does not list (/graphql, /openapi.json, /docs,
 * /dashboard, unknown paths) are not checked.
 *
 * With OPENAPI_COVERAGE_FILE set, each response asserted (not the bare `checkDocumentedResponse`
 * calls of tests about the check itself) appends "METHOD template status media-type" to that file:
 * docs/RELIABILITY.md lists what the REST tests exercise from it.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { OPENAPI_PATH } from '../../platform/schema-files';

type Json = Record<string, unknown>;

export interface ResponseToCheck {
  method: string;
  /** A path, with or without a query string, or a full URL. */
  path: string;
  status: number;
  /** The Content-Type header; without one the body is taken as JSON. */
  contentType?: string | null;
  /** The body as received (text), or already parsed JSON. */
  body: unknown;
}

export interface CheckedResponse {
  /** The documented path template, or null when the route is not in the document (nothing was checked). */
  route: string | null;
  /** The documented response key used: "200", "4XX", "default". */
  status?: string;
  mediaType?: string;
  /** Empty when the response matches the document. */
  problems: string[];
}

/** OAS 3.1 keywords of the Schema Object beyond JSON Schema 2020-12: known to ajv, not checked. */
const OAS_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];

/**
 * An ajv for OpenAPI 3.1 schemas (JSON Schema 2020-12), strict about unknown keywords and formats.
 * Two of ajv's strict checks are style, not validity, and are off: strictTypes (union types such as
 * ["string", "null"] are 2020-12) and strictRequired (`oneOf: [{ required: ["lat", "lon"] },
 * { required: ["address"] }]` names properties defined by the parent schema, a common idiom).
 */
export function openApiAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true });
  addFormats(ajv);
  for (const keyword of OAS_KEYWORDS) ajv.addKeyword(keyword);
  return ajv;
}

/** The value at a local JSON pointer ("#/components/schemas/X"), or undefined. */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !(token in node)) return undefined;
    node = (node as Json)[token];
  }
  return node;
}

/**
 * A schema of the document made self-contained for ajv: each local `$ref` ("#/components/…", relative
 * to the whole document) is copied into the schema's own `$defs` and pointed at there (cycles stay refs).
 */
export function selfContained(schema: unknown, document: unknown): Json {
  const defs: Json = {};
  const names = new Map<string, string>();
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (typeof node !== 'object' || node === null) return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) out[key] = rewrite(value);
    const ref = (node as Json).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/')) {
      let name = names.get(ref);
      if (!name) {
        const target = resolvePointer(document, ref);
        if (target === undefined) throw new Error(`$ref ${ref} does not resolve`);
        name = `openapi-ref-${names.size}`;
        names.set(ref, name);
        defs[name] = rewrite(target);
      }
      out.$ref = `#/$defs/${name}`;
    }
    return out;
  };
  const root = rewrite(schema) as Json;
  return names.size === 0 ? root : { ...root, $defs: { ...(root.$defs as Json | undefined), ...defs } };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

class DocumentedResponses {
  private readonly ajv = openApiAjv();
  private readonly validators = new Map<unknown, ValidateFunction>();
  private readonly routes: { template: string; pattern: RegExp; item: Json }[];

  constructor(readonly document: Json) {
    this.routes = Object.entries(document.paths as Record<string, Json>).map(([template, item]) => ({
      template,
      pattern: new RegExp(`^${template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+')}$`),
      item,
    }));
  }

  /** The documented operation for a method and a concrete path, preferring templates without parameters. */
  operation(method: string, pathname: string): { template: string; operation: Json } | null {
    const m = method.toLowerCase();
    const matches = this.routes.filter((r) => r.pattern.test(pathname) && typeof r.item[m] === 'object');
    matches.sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
    return matches[0] ? { template: matches[0].template, operation: matches[0].item[m] as Json } : null;
  }

  validator(schema: unknown): ValidateFunction {
    let validate = this.validators.get(schema);
    if (!validate) this.validators.set(schema, (validate = this.ajv.compile(selfContained(schema, this.document))));
    return validate;
  }

  check(response: ResponseToCheck): CheckedResponse {
    const pathname = new URL(response.path, 'http://x').pathname;
    const found = METHODS.includes(response.method.toLowerCase()) ? this.operation(response.method, pathname) : null;
    if (!found) return { route: null, problems: [] };
    const where = `${response.method.toUpperCase()} ${found.template} → ${response.status}`;
    const responses = (found.operation.responses ?? {}) as Record<string, Json>;
    const key = [String(response.status), `${String(response.status)[0]}XX`, 'default'].find((k) => k in responses);
    if (!key) return { route: found.template, problems: [`${where}: status not documented (documented: ${Object.keys(responses).join(', ')})`] };
    const content = (responses[key].content ?? {}) as Record<string, Json>;
    const mediaType = (response.contentType ?? 'application/json').split(';')[0].trim().toLowerCase();
    const documented = Object.keys(content).find((type) => type.split(';')[0].trim().toLowerCase() === mediaType);
    if (!documented) {
      return { route: found.template, status: key, mediaType, problems: [`${where}: Content-Type ${mediaType} not documented (documented: ${Object.keys(content).join(', ') || 'no body'})`] };
    }
    const validate = this.validator(content[documented].schema ?? {});
    const problems: string[] = [];
    const validateOne = (value: unknown, label: string) => {
      if (!validate(value)) problems.push(`${where} ${mediaType}${label}: ${formatErrors(validate.errors)} in ${JSON.stringify(value).slice(0, 300)}`);
    };
    if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
      const parsed = parseJson(response.body);
      if ('error' in parsed) problems.push(`${where}: the body is not JSON (${parsed.error})`);
      else validateOne(parsed.value, '');
    } else if (mediaType === 'application/x-ndjson') {
      const lines = String(response.body).split('\n').filter((line) => line.trim() !== '');
      lines.forEach((line, i) => {
        const parsed = parseJson(line);
        if ('error' in parsed) problems.push(`${where}: line ${i + 1} is not JSON (${parsed.error})`);
        else validateOne(parsed.value, ` line ${i + 1}`);
      });
    } else validateOne(typeof response.body === 'string' ? response.body : JSON.stringify(response.body), '');
    return { route: found.template, status: key, mediaType, problems };
  }
}

function parseJson(body: unknown): { value: unknown } | { error: string } {
  if (typeof body !== 'string') return { value: body };
  try {
    return { value: JSON.parse(body) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function formatErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`).join('; ');
}

let published: DocumentedResponses | undefined;

/**
 * The document GET /openapi.json serves: the checked-in one (test/schema/sdl-drift checks that the
 * routes describe exactly it; test/conformance/openapi that the gateway serves exactly it).
 */
export function publishedDocument(): Json {
  return documented().document;
}

function documented(): DocumentedResponses {
  if (!published) {
    const { 'x-generated': _generated, ...served } = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as Json;
    published = new DocumentedResponses(served);
  }
  return published;
}

/** Checks one response against the published document (or `document`); returns what does not match. */
export function checkDocumentedResponse(response: ResponseToCheck, document?: Json): CheckedResponse {
  return (document ? new DocumentedResponses(document) : documented()).check(response);
}

/** Throws, naming every mismatch, unless the response matches the published document. */
export function assertDocumentedResponse(response: ResponseToCheck): CheckedResponse {
  const checked = checkDocumentedResponse(response);
  const file = process.env.OPENAPI_COVERAGE_FILE;
  if (file && checked.route) appendFileSync(file, `${response.method.toUpperCase()} ${checked.route} ${response.status} ${checked.mediaType ?? '-'}${checked.problems.length ? ' MISMATCH' : ''}\n`);
  if (checked.problems.length > 0) throw new Error(`response does not match the OpenAPI document:\n  ${checked.problems.join('\n  ')}`);
  return checked;
}

/**
 * Checks a fetch Response (reading a clone, so the caller can still read the body; a stream is read
 * to its end) and returns it; throws on a mismatch.
 */
export async function checkedFetchResponse(method: string, path: string, response: Response): Promise<Response> {
  const pathname = new URL(path, 'http://x').pathname;
  if (!documented().operation(method, pathname)) return response; // not a documented route: nothing to read
  const body = await response.clone().text();
  assertDocumentedResponse({ method, path, status: response.status, contentType: response.headers.get('content-type'), body });
  return response;
}
