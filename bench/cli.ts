/** The benches' command line: `--name value` options and `--flag` switches, read from process.argv. */
const args = process.argv.slice(2);

/** The value after `--name`, or `fallback` when the option is not given. */
export function option(name: string): string | undefined;
export function option(name: string, fallback: string): string;
export function option(name: string, fallback?: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
}

/** Whether `--name` is on the command line. */
export function flag(name: string): boolean {
  return args.includes(`--${name}`);
}
