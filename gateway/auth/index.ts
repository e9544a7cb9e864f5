export {
  issueToken,
  InvalidTokenError,
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
  verifyToken,
  type InvalidTokenReason,
  type IssueTokenOptions,
  type TokenResponse,
  type VerifyTokenOptions,
} from './jwt';
export { jwtSecret } from './jwt-secret';
export {
  InvalidKeyRequestError,
  KeyNotFoundError,
  KeyStore,
  type CreatedKey,
  type KeyRecord,
  type KeyStoreOptions,
} from './key-store';
export { createFirstStartKey, LOCAL_ORG } from './local-key';
export type { Principal } from './principal';
