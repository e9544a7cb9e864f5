/**
 * The residential model in service, swapped without a restart: it watches the CURRENT pointer
 * (written atomically by `npm run train` / `npm run model -- promote|rollback`), loads the newly
 * promoted version beside the old one, switches over, and releases the old ONNX sessions once the
 * calls still using them have finished. A version that fails to load is reported and not served.
 */
import { unwatchFile, watchFile } from 'node:fs';
import { join } from 'node:path';
import { currentVersion, RESIDENTIAL_DIR } from './manifest';
import type { HomeRequest } from './request';
import { ResidentialModelSet } from './runtime';
import type { HomeValue, ResidentialModelSummary, ResidentialRuntime } from './valuation';

interface Loaded {
  set: ResidentialModelSet;
  inFlight: number;
  retired: boolean;
}

type State =
  | { phase: 'ready'; active: Loaded }
  | { phase: 'stopped' };

export interface ServingOptions {
  root?: string;
  /** How often CURRENT is checked. @default 1000 ms */
  pollMs?: number;
  log?: (message: string) => void;
}

export class ResidentialModelService implements ResidentialRuntime {
  private state: State;
  private switching: Promise<void> = Promise.resolve();

  private constructor(active: ResidentialModelSet, private readonly root: string, private readonly log: (message: string) => void) {
    this.state = { phase: 'ready', active: { set: active, inFlight: 0, retired: false } };
  }

  static async start(options: ServingOptions = {}): Promise<ResidentialModelService> {
    const root = options.root ?? RESIDENTIAL_DIR;
    const version = currentVersion(root);
    if (!version) throw new Error(`no residential model is promoted in ${root}: run \`npm run train\``);
    const service = new ResidentialModelService(await ResidentialModelSet.load(version, root), root, options.log ?? ((m) => console.error(`[models] ${m}`)));
    watchFile(join(root, 'CURRENT'), { interval: options.pollMs ?? 1000 }, () => void service.reload());
    return service;
  }

  get version(): string {
    return this.ready().set.version;
  }

  async value(requests: readonly HomeRequest[]): Promise<HomeValue[]> {
    const loaded = this.ready();
    loaded.inFlight++;
    try {
      return await loaded.set.value(requests);
    } finally {
      loaded.inFlight--;
      if (loaded.retired && loaded.inFlight === 0) await loaded.set.close();
    }
  }

  summary(): ResidentialModelSummary {
    return this.ready().set.summary();
  }

  /** Switches to the promoted version if it changed; serialised, so two quick promotions end on the last. */
  reload(): Promise<void> {
    this.switching = this.switching.then(() => this.switchToCurrent());
    return this.switching;
  }

  async close(): Promise<void> {
    unwatchFile(join(this.root, 'CURRENT'));
    if (this.state.phase === 'stopped') return;
    const { active } = this.state;
    this.state = { phase: 'stopped' };
    active.retired = true;
    if (active.inFlight === 0) await active.set.close();
  }

  private async switchToCurrent(): Promise<void> {
    if (this.state.phase !== 'ready') return;
    const wanted = currentVersion(this.root);
    if (!wanted || wanted === this.state.active.set.version) return;
    let next: ResidentialModelSet;
    try {
      next = await ResidentialModelSet.load(wanted, this.root);
    } catch (error) {
      this.log(`version ${wanted} was promoted but cannot be loaded; still serving ${this.state.active.set.version}: ${(error as Error).message}`);
      return;
    }
    if (this.state.phase !== 'ready') {
      await next.close();
      return;
    }
    const old = this.state.active;
    this.state = { phase: 'ready', active: { set: next, inFlight: 0, retired: false } };
    old.retired = true;
    if (old.inFlight === 0) await old.set.close();
    this.log(`now serving residential model ${wanted} (was ${old.set.version})`);
  }

  private ready(): Loaded {
    switch (this.state.phase) {
      case 'ready':
        return this.state.active;
      case 'stopped':
        throw new Error('the residential model service is stopped');
      default: {
        const unreachable: never = this.state;
        throw new Error(`unknown phase ${JSON.stringify(unreachable)}`);
      }
    }
  }
}
