// Jest runs tests in a vm context whose typed-array constructors differ from Node's; onnxruntime-node
// checks `data instanceof Float32Array` against Node's own, so tensors built inside tests would be
// refused. This environment hands the sandbox the host realm's typed arrays.
const { TestEnvironment } = require('jest-environment-node');
const { acquireSharedStack } = require('./shared-stack-host');

const SHARED = ['ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Float32Array', 'Float64Array', 'Int8Array', 'Int16Array', 'Int32Array', 'Uint8Array', 'Uint8ClampedArray', 'Uint16Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array'];

class HostTypedArraysEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of SHARED) this.global[name] = globalThis[name];
    // The worker's shared stack (test/shared-stack-host.js), for test/support/shared-stack.ts.
    this.global.__acquireSharedTestStack = acquireSharedStack;
  }
}

module.exports = HostTypedArraysEnvironment;
