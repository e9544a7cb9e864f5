/** The checked-in OpenAPI document (schema/openapi.json): the document the gateway serves on GET /openapi.json. */
import { buildRestApp } from '../gateway/http/app';

/**
 * The gateway's routes document themselves (gateway/ops/openapi.ts), so the document is read from
 * an app that is built but never listens: nothing it was given is touched, and any use would throw.
 */
export async function emittedOpenApi(): Promise<string> {
  const app = await buildRestApp({ graph: notServing(), keys: notServing(), quotas: notServing(), isReady: () => false, log: () => {} });
  try {
    await app.ready();
    return `${JSON.stringify({ 'x-generated': 'GENERATED FILE, DO NOT EDIT: rebuild with `npm run schema`', ...app.swagger() }, null, 2)}\n`;
  } finally {
    await app.close();
  }
}

function notServing<T extends object>(): T {
  return new Proxy({} as T, {
    get: (_target, property) => {
      throw new Error(`the OpenAPI document is built without serving (${String(property)} was used)`);
    },
  });
}
