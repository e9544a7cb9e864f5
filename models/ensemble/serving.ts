/**
 * A model in service, swapped without a restart, for any kind: it watches the CURRENT pointer
 * (written atomically by `npm run train` / `npm run model -- promote|rollback`), loads the newly
 * promoted version beside the old one, switches over, and releases the old ONNX sessions once the
 * calls still using them have finished. A version that fails to load is reported and not served.
 */
import { unwatchFile, watchFile } from 'node:fs';
import { join } from 'node:path';
import { currentVersion } from './versions';

export interface ServableModelSet {
  readonly version: string;
  close(): Promise<void>;
}

interface Loaded<Set> {
  set: Set;
  inFlight: number;
  retired: boolean;
}

type State<Set> = { phase: 'ready'; active: Loaded<Set> } | { phase: 'stopped' };

export interface HotSwapOptions {
  /** How often CURRENT is checked. @default 1000 ms */
  pollMs?: number;
  log?: (message: string) => void;
}

export class HotSwappedModel<Set extends ServableModelSet> {
  private state: State<Set>;
  private switching: Promise<void> = Promise.resolve();

  private constructor(
    active: Set,
    private readonly kind: string,
    private readonly root: string,
    private readonly load: (version: string, root: string) => Promise<Set>,
    private readonly log: (message: string) => void,
  ) {
    this.state = { phase: 'ready', active: { set: active, inFlight: 0, retired: false } };
  }

  /** Loads the promoted version under `root`; null when none is promoted yet. */
  static async start<Set extends ServableModelSet>(kind: string, root: string, load: (version: string, root: string) => Promise<Set>, options: HotSwapOptions = {}): Promise<HotSwappedModel<Set> | null> {
    const version = currentVersion(root);
    if (!version) return null;
    const served = new HotSwappedModel(await load(version, root), kind, root, load, options.log ?? ((m) => console.error(`[models] ${m}`)));
    watchFile(join(root, 'CURRENT'), { interval: options.pollMs ?? 1000 }, () => void served.reload());
    return served;
  }

  /** The version in service now: for quick synchronous reads (summary, catalogue). */
  get current(): Set {
    return this.ready().set;
  }

  /** Runs `work` on the version in service, which is not released before `work` ends. */
  async use<T>(work: (set: Set) => Promise<T>): Promise<T> {
    const loaded = this.ready();
    loaded.inFlight++;
    try {
      return await work(loaded.set);
    } finally {
      loaded.inFlight--;
      if (loaded.retired && loaded.inFlight === 0) await loaded.set.close();
    }
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
    let next: Set;
    try {
      next = await this.load(wanted, this.root);
    } catch (error) {
      this.log(`${this.kind} version ${wanted} was promoted but cannot be loaded; still serving ${this.state.active.set.version}: ${(error as Error).message}`);
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
    this.log(`now serving ${this.kind} model ${wanted} (was ${old.set.version})`);
  }

  private ready(): Loaded<Set> {
    switch (this.state.phase) {
      case 'ready':
        return this.state.active;
      case 'stopped':
        throw new Error(`the ${this.kind} model service is stopped`);
      default: {
        const unreachable: never = this.state;
        throw new Error(`unknown phase ${JSON.stringify(unreachable)}`);
      }
    }
  }
}
