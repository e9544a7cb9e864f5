import { parseArgs } from 'node:util';
import { planNames, UnknownPlanError } from '../platform/plans';
import { InvalidKeyRequestError, KeyNotFoundError, KeyStore, type KeyRecord } from '../gateway/auth/key-store';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

function usage(): string {
  return [
    'usage: npm run keys -- <command>',
    '  create --org NAME --plan PLAN [--label TEXT]   make a key (shown once)',
    '  list                                         show all keys',
    '  revoke ID                                    revoke a key by its id',
    `plans: ${planNames().join(', ')}`,
  ].join('\n');
}

/** Runs one keys command and returns the exit code: 0 done, 1 failed (e.g. unknown id), 2 bad usage. */
export function runKeysCli(argv: string[], io: CliIo, store: KeyStore = new KeyStore()): number {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'create':
        return create(rest, io, store);
      case 'list':
        parseArgs({ args: rest, options: {}, strict: true });
        printTable(store.list(), io);
        return EXIT_OK;
      case 'revoke':
        return revoke(rest, io, store);
      case 'help':
      case '--help':
        io.out(usage());
        return EXIT_OK;
      default:
        io.err(command === undefined ? 'missing command' : `unknown command '${command}'`);
        io.err(usage());
        return EXIT_USAGE;
    }
  } catch (error) {
    if (error instanceof UnknownPlanError || error instanceof InvalidKeyRequestError || isParseArgsError(error)) {
      io.err(`error: ${(error as Error).message}`);
      return EXIT_USAGE;
    }
    if (error instanceof KeyNotFoundError) {
      io.err(`error: ${error.message}`);
      return EXIT_FAILED;
    }
    throw error;
  }
}

function create(args: string[], io: CliIo, store: KeyStore): number {
  const { values } = parseArgs({
    args,
    options: { org: { type: 'string' }, plan: { type: 'string' }, label: { type: 'string' } },
    strict: true,
  });
  if (values.org === undefined || values.plan === undefined) {
    io.err('error: create needs --org NAME and --plan PLAN');
    io.err(usage());
    return EXIT_USAGE;
  }
  const { key, record } = store.create({ org: values.org, plan: values.plan, label: values.label });
  io.out(`Created key ${record.id} for organisation '${record.org}' on plan '${record.plan}':`);
  io.out(key);
  io.out('This key will not be shown again: store it now (only its hash is kept).');
  return EXIT_OK;
}

function revoke(args: string[], io: CliIo, store: KeyStore): number {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true, strict: true });
  if (positionals.length !== 1) {
    io.err('error: revoke needs exactly one key id');
    return EXIT_USAGE;
  }
  const record = store.revoke(positionals[0]);
  io.out(`Revoked key ${record.id} (organisation '${record.org}') at ${record.revoked_at}.`);
  return EXIT_OK;
}

function printTable(records: KeyRecord[], io: CliIo): void {
  const header = ['ID', 'ORG', 'PLAN', 'LABEL', 'CREATED', 'REVOKED'];
  const rows = records.map((r) => [r.id, r.org, r.plan, r.label ?? '-', r.created_at, r.revoked_at ?? '-']);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  for (const row of [header, ...rows]) {
    io.out(row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd());
  }
  if (rows.length === 0) io.out('(no keys yet)');
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

if (require.main === module) {
  process.exitCode = runKeysCli(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
}
