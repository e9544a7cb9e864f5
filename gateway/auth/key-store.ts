import { timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { getPlan } from '../../platform/plans';
import { generateApiKey, hashApiKey, keyIdOf } from './api-key';
import { createPrivateFileOnce, valuationHome, writePrivateFile } from '../../platform/local-state';
import type { Principal } from './principal';

/** What may be shown about a key: everything but its hash. */
export interface KeyRecord {
  id: string;
  org: string;
  plan: string;
  label: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface CreatedKey {
  /** The plaintext key: exists only here, to be shown to its owner once. */
  key: string;
  record: KeyRecord;
}

/** What a new key is for: its organisation, plan and an optional label. */
export interface KeyRequest {
  org: string;
  plan: string;
  label?: string;
}

export interface KeyStoreOptions {
  /** Defaults to `${VALUATION_HOME}/keys.json`. */
  file?: string;
  clock?: () => number;
}

interface StoredKey extends KeyRecord {
  sha256: string;
}

interface KeysFile {
  version: 1;
  keys: StoredKey[];
}

const nullableString = { type: ['string', 'null'] } as const;
const isKeysFile = new Ajv().compile<KeysFile>({
  type: 'object',
  required: ['version', 'keys'],
  properties: {
    version: { const: 1 },
    keys: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'org', 'plan', 'label', 'created_at', 'revoked_at', 'sha256'],
        properties: {
          id: { type: 'string' },
          org: { type: 'string' },
          plan: { type: 'string' },
          label: nullableString,
          created_at: { type: 'string' },
          revoked_at: nullableString,
          sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        },
      },
    },
  },
});

const ORG_PATTERN = /^[a-z0-9][a-z0-9._-]{0,62}$/;
const MAX_LABEL_LENGTH = 200;
// Keys added or revoked by the CLI reach a running server within this long, or at once on an unknown id.
const RECHECK_INTERVAL_MS = 1000;

/** A request the store refuses: bad organisation name or label. */
export class InvalidKeyRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidKeyRequestError';
  }
}

export class KeyNotFoundError extends Error {
  constructor(readonly keyId: string) {
    super(`no key with id '${keyId}'`);
    this.name = 'KeyNotFoundError';
  }
}

/**
 * API keys kept hashed in one JSON file (mode 0600). Several processes share the file (the server and
 * the keys CLI), so reads notice a changed file and writes re-read it first and replace it atomically.
 */
export class KeyStore {
  readonly file: string;
  private readonly clock: () => number;
  private keys = new Map<string, StoredKey>();
  private loadedSignature: string | undefined;
  private lastCheckedAt = Number.NEGATIVE_INFINITY;

  constructor(options: KeyStoreOptions = {}) {
    this.file = options.file ?? join(valuationHome(), 'keys.json');
    this.clock = options.clock ?? Date.now;
    this.load();
  }

  /** The caller behind `apiKey`, or null for unknown, revoked or tampered keys. */
  verify(apiKey: string): Principal | null {
    const id = keyIdOf(apiKey);
    if (id === null) return null;
    const stored = this.findActive(id);
    if (!stored) return null;
    const presented = Buffer.from(hashApiKey(apiKey), 'hex');
    const expected = Buffer.from(stored.sha256, 'hex');
    return timingSafeEqual(presented, expected) ? toPrincipal(stored) : null;
  }

  /** The caller for a key id vouched for elsewhere (a signed token), or null once the key is revoked or gone. */
  principalForKeyId(id: string): Principal | null {
    const stored = this.findActive(id);
    return stored ? toPrincipal(stored) : null;
  }

  create(request: KeyRequest): CreatedKey {
    this.load();
    const { key, stored } = this.generate(request);
    this.keys.set(stored.id, stored);
    this.save();
    return { key, record: toRecord(stored) };
  }

  /**
   * Creates the key file with this one key in it, or returns null and creates nothing when a key file
   * exists already, whatever it holds (other organisations' keys, revoked ones, none at all). Of two
   * processes racing, one creates the file and the other gets null.
   */
  createInNewFile(request: KeyRequest): CreatedKey | null {
    const { key, stored } = this.generate(request);
    if (!createPrivateFileOnce(this.file, serialise([stored]))) return null;
    this.load();
    return { key, record: toRecord(stored) };
  }

  /** All keys, oldest first, without their hashes. */
  list(): KeyRecord[] {
    this.refresh({ force: true });
    return [...this.keys.values()].map(toRecord).sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  /** Revokes a key; revoking it again keeps the first revocation time. */
  revoke(id: string): KeyRecord {
    this.load();
    const stored = this.keys.get(id);
    if (!stored) throw new KeyNotFoundError(id);
    if (stored.revoked_at === null) {
      stored.revoked_at = new Date(this.clock()).toISOString();
      this.save();
    }
    return toRecord(stored);
  }

  /** A new key for the request, checked but not stored: the plaintext and what the file keeps of it. */
  private generate(request: KeyRequest): { key: string; stored: StoredKey } {
    if (!ORG_PATTERN.test(request.org)) {
      throw new InvalidKeyRequestError(
        `invalid organisation '${request.org}': use 1-63 lowercase letters, digits, '.', '_' or '-', starting with a letter or digit`,
      );
    }
    const plan = getPlan(request.plan).name;
    const label = request.label ?? null;
    if (label !== null && (label.length > MAX_LABEL_LENGTH || /\p{Cc}/u.test(label))) {
      throw new InvalidKeyRequestError(`invalid label: at most ${MAX_LABEL_LENGTH} characters on one line`);
    }
    let generated = generateApiKey();
    while (this.keys.has(generated.id)) generated = generateApiKey();
    const stored: StoredKey = {
      id: generated.id,
      org: request.org,
      plan,
      label,
      created_at: new Date(this.clock()).toISOString(),
      revoked_at: null,
      sha256: hashApiKey(generated.key),
    };
    return { key: generated.key, stored };
  }

  private findActive(id: string): StoredKey | null {
    this.refresh({ force: false });
    let stored = this.keys.get(id);
    if (!stored) {
      // A miss may be a key the CLI created a moment ago; a stat is cheap enough to check every time.
      this.refresh({ force: true });
      stored = this.keys.get(id);
    }
    return stored && stored.revoked_at === null ? stored : null;
  }

  private refresh({ force }: { force: boolean }): void {
    const now = this.clock();
    if (!force && now - this.lastCheckedAt < RECHECK_INTERVAL_MS) return;
    this.lastCheckedAt = now;
    if (this.fileSignature() !== this.loadedSignature) this.load();
  }

  private load(): void {
    // Taken before reading: a write landing after it shows up as a new signature on the next check.
    const signature = this.fileSignature();
    this.keys = new Map(this.readKeys().map((key) => [key.id, key]));
    this.loadedSignature = signature;
  }

  private readKeys(): StoredKey[] {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const parsed: unknown = JSON.parse(text);
    if (!isKeysFile(parsed)) throw new Error(`${this.file} is not a valid key file`);
    return parsed.keys;
  }

  private save(): void {
    writePrivateFile(this.file, serialise([...this.keys.values()]));
    this.loadedSignature = this.fileSignature();
  }

  /** Changes whenever the file is replaced (new inode) or edited in place (mtime, size). */
  private fileSignature(): string {
    try {
      const stats = statSync(this.file);
      return `${stats.ino}:${stats.mtimeMs}:${stats.size}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
      throw error;
    }
  }
}

function serialise(keys: StoredKey[]): string {
  const contents: KeysFile = { version: 1, keys };
  return `${JSON.stringify(contents, null, 2)}\n`;
}

function toRecord({ sha256: _hash, ...record }: StoredKey): KeyRecord {
  return record;
}

function toPrincipal(stored: StoredKey): Principal {
  return { keyId: stored.id, org: stored.org, plan: stored.plan };
}
