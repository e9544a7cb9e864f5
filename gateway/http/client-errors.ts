/**
 * Refusals made before fastify has a request: Node's HTTP parser gives up on headers over its limit
 * (431), a request not received in time (408) or bytes that are not HTTP/1.1 (400), and fastify's
 * clientErrorHandler answers on the bare socket. These answers carry the catalogue's error body too,
 * as every other refusal of the service does (fastify's own default has a body of its own).
 */
import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError, formatBytes } from '../../schema/errors';

/** fastify's `clientErrorHandler` (and the 'clientError' event's listener): a catalogue reply, then the socket is closed. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // As Node does by default: never in the middle of a response already under way on this socket.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) socket.write(rawErrorResponse(refusalOf(error)));
  socket.destroy(error);
}

function refusalOf(error: { code?: string }): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('HEADERS_TOO_LARGE', `The request headers are larger than ${formatBytes(maxHeaderSize)}`);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('REQUEST_TIMEOUT');
    default:
      return new ApiError('INVALID_PARAMETER', 'The request cannot be read as HTTP/1.1');
  }
}

/** A whole HTTP/1.1 response with `error` in the catalogue's shape, for a socket no framework answers on; the connection closes after it. */
export function rawErrorResponse(error: ApiError): string {
  const requestId = randomUUID();
  const body = JSON.stringify(error.toReply(requestId));
  return [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}
