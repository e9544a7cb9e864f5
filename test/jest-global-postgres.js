// Finds the PostgreSQL for the run's PostgreSQL-store suites, once, before any test file
// (test/support/postgres.ts reads what it decided, in TEST_DATABASE_URL):
//   1. DATABASE_URL, when set and answering: used as it is (.ci/run sets it to the machine's server);
//      the suites make schemas of their own there and drop them;
//   2. else, with initdb and pg_ctl installed: a private cluster in a temporary folder on a free port
//      (fsync off: nothing of it is kept), stopped and removed by jest-global-teardown.js;
//   3. else none: the suites that need PostgreSQL are skipped, and this says so once.
// Under CI (CI=true) the third case fails the run: CI must run every suite.
const { spawnSync } = require('node:child_process');
const { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } = require('node:fs');
const { tmpdir, userInfo } = require('node:os');
const { join } = require('node:path');

async function answers(url) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** initdb and pg_ctl: on PATH, else Debian's newest /usr/lib/postgresql/<version>/bin. */
function postgresBinaries() {
  if (!spawnSync('initdb', ['--version']).error && !spawnSync('pg_ctl', ['--version']).error) return { initdb: 'initdb', pgCtl: 'pg_ctl' };
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a)) : [];
  return versions.length > 0 ? { initdb: join(root, versions[0], 'bin', 'initdb'), pgCtl: join(root, versions[0], 'bin', 'pg_ctl') } : null;
}

/**
 * PostgreSQL refuses to run as root: as root, the cluster is made and run by the `postgres` user
 * (Debian's package creates it), in a folder it owns.
 */
function runner() {
  if (userInfo().uid !== 0) return { run: (command, args) => spawnSync(command, args, { encoding: 'utf8' }), owner: null };
  const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  if (id.status !== 0) return null;
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  return {
    run: (command, args) => spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' }),
    owner: { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) },
  };
}

async function startPrivateCluster(binaries, freePort) {
  const as = runner();
  if (!as) throw new Error('running as root and there is no postgres user to run a private cluster as');
  const dir = mkdtempSync(join(tmpdir(), 'jest-postgres-'));
  if (as.owner) chownSync(dir, as.owner.uid, as.owner.gid);
  const data = join(dir, 'data');
  const init = as.run(binaries.initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  if (init.status !== 0) throw new Error(`initdb failed: ${(init.stderr || init.stdout || '').trim().split('\n').slice(-3).join(' ')}`);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  const started = as.run(binaries.pgCtl, ['-D', data, '-l', join(dir, 'postgres.log'), '-o', options, '-w', '-t', '30', 'start']);
  const stop = () => {
    as.run(binaries.pgCtl, ['-D', data, '-m', 'immediate', 'stop']);
    rmSync(dir, { recursive: true, force: true });
  };
  if (started.status !== 0) {
    stop();
    throw new Error(`pg_ctl start failed: ${(started.stderr || started.stdout || '').trim().split('\n').slice(-3).join(' ')}`);
  }
  // Never outlive the run, even when jest is stopped before its teardown.
  process.once('exit', stop);
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
}

function withoutPassword(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'DATABASE_URL (unreadable)';
  }
}

/** Decides the run's PostgreSQL; returns a stop function when it started one. `freePort` is the Redis setup's. */
module.exports = async function findPostgres({ say, freePort }) {
  const configured = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (configured && (await answers(configured))) {
    process.env.TEST_DATABASE_URL = configured;
    say(`PostgreSQL: using the one at ${withoutPassword(configured)} (DATABASE_URL); the PostgreSQL-store suites make schemas of their own there and drop them.`);
    return null;
  }
  const binaries = postgresBinaries();
  let reason = configured ? `nothing answered at ${withoutPassword(configured)}` : 'DATABASE_URL unset';
  if (binaries) {
    try {
      const own = await startPrivateCluster(binaries, freePort);
      process.env.TEST_DATABASE_URL = own.url;
      say(`PostgreSQL: ${reason}; started a private cluster (initdb) on ${own.url} for this run (removed at the end).`);
      return own.stop;
    } catch (error) {
      reason += `, and a private cluster could not start (${error.message})`;
    }
  } else {
    reason += ' and no initdb installed (apt-get install postgresql)';
  }
  if (process.env.CI === 'true') throw new Error(`CI runs every PostgreSQL-store suite, but ${reason}`);
  process.env.TEST_DATABASE_URL = '';
  say(`PostgreSQL-store suites skipped: ${reason}`);
  return null;
};
