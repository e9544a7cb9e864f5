// Stops the redis-server and the PostgreSQL cluster jest-global-setup.js started for the run, if it started them.
module.exports = async function globalTeardown() {
  for (const name of ['__TEST_REDIS_STOP__', '__TEST_POSTGRES_STOP__']) {
    const stop = globalThis[name];
    if (stop) {
      delete globalThis[name];
      stop();
    }
  }
};
