/** The training commands' progress bar (cli-progress), one per kind of model. */
import { Presets, SingleBar } from 'cli-progress';

export function progressBar(kind: string): { update: (done: number, total: number, step: string) => void; stop: () => void } {
  const bar = new SingleBar({ format: `${kind} |{bar}| {percentage}% {step}`, hideCursor: true }, Presets.shades_classic);
  bar.start(1, 0, { step: '' });
  return {
    update: (done, total, step) => {
      bar.setTotal(total);
      bar.update(done, { step });
    },
    stop: () => bar.stop(),
  };
}
