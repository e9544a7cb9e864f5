// Stops the redis-server jest-global-setup.js started for the run, if it started one.
module.exports = async function globalTeardown() {
  const stop = globalThis.__TEST_REDIS_STOP__;
  if (stop) {
    delete globalThis.__TEST_REDIS_STOP__;
    stop();
  }
};
