// The stack a jest worker's test files share (test/support/shared-stack.ts useSharedTestStack): started
// on first use, as a child process running dist/test/support/shared-stack-main.js, and kept for the
// worker's life. Starting the service is most of a small test file's time; sharing it saves one start
// per file that needs no settings of its own. Every handle is unref'd, so the worker still exits on its
// own; the child stops when its stdin closes, that is when the worker is gone.
const { spawn } = require('node:child_process');
const { mkdtempSync, openSync, readFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const MAIN = join(__dirname, '..', 'dist', 'test', 'support', 'shared-stack-main.js');
let started;

function start() {
  const logFile = join(mkdtempSync(join(tmpdir(), 'shared-stack-')), 'stderr.log');
  const child = spawn(process.execPath, [MAIN], { stdio: ['pipe', 'pipe', openSync(logFile, 'a')], env: { ...process.env, APOLLO_TELEMETRY_DISABLED: '1', SHARED_STACK_LOG: logFile } });
  return new Promise((resolve, reject) => {
    let out = '';
    const failed = (why) => reject(new Error(`the shared test stack did not start (${why}); its stderr: ${readFileSync(logFile, 'utf8').slice(-2000)}`));
    child.once('exit', (code, signal) => failed(`exit ${code ?? signal}`));
    child.once('error', (error) => failed(error.message));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const end = out.indexOf('\n');
      if (end < 0) return;
      child.removeAllListeners('exit');
      child.stdout.removeAllListeners('data');
      for (const handle of [child, child.stdin, child.stdout]) handle.unref();
      resolve(JSON.parse(out.slice(0, end)));
    });
  });
}

/** The shared stack's SharedStackInfo, starting it on the worker's first call. */
function acquireSharedStack() {
  started ??= start().catch((error) => {
    started = undefined;
    throw error;
  });
  return started;
}

module.exports = { acquireSharedStack };
