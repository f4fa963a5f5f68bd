/**
 * The argument rules of the EKS AL2 `/etc/eks/bootstrap.sh`, as its `while [[ $# -gt 0 ]]; case $key` loop
 * applies them: each known option takes the next word as its value (`VAR=$2; shift; shift`), and any other
 * word (including `--opt=value`) falls into `*)` and is saved as a positional; the cluster name is the first
 * positional and the other positionals are silently ignored. Under `set -o nounset`, a value option given as
 * the last word fails with "$2: unbound variable" and the script exits.
 */
export const BootstrapValueOptions: readonly string[] = [
  '--use-max-pods',
  '--b64-cluster-ca',
  '--apiserver-endpoint',
  '--kubelet-extra-args',
  '--enable-docker-bridge',
  '--aws-api-retry-attempts',
  '--docker-config-json',
  '--containerd-config-file',
  '--pause-container-account',
  '--pause-container-version',
  '--dns-cluster-ip',
  '--container-runtime',
  '--ip-family',
  '--service-ipv6-cidr',
  '--enable-local-outpost',
  '--cluster-id',
  '--mount-bpf-fs',
  '--local-disks',
];

/** A word bootstrap.sh did not recognise as an option (it became a positional). */
export interface IgnoredWord {
  word: string;
  /** 0-based index among the arguments. */
  index: number;
  /** For `--known-option=value`: the option the user probably meant. */
  meant?: string;
}

/** What bootstrap.sh makes of its arguments. */
export interface BootstrapArgs {
  /** Option values, last occurrence wins (each occurrence reassigns the variable). */
  options: Record<string, string>;
  clusterName?: string;
  /** Positionals after the first, and option-looking positionals: ignored by bootstrap.sh. */
  ignored: IgnoredWord[];
  /** Why the script would exit before starting the kubelet. */
  fatal?: string;
}

/** Parses bootstrap.sh arguments (the words after the script path) exactly as its loop does. */
export function parseBootstrapArgs(args: readonly string[]): BootstrapArgs {
  const options: Record<string, string> = {};
  const positionals: { word: string; index: number }[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    if (word === '-h' || word === '--help')
      return { options, ignored: [], fatal: 'bootstrap.sh printed its help and exited 1 (-h/--help)' };
    if (BootstrapValueOptions.includes(word)) {
      const value = args[i + 1];
      if (value === undefined)
        return {
          options,
          ignored: [],
          fatal: `bootstrap.sh exited: ${word} is the last word and has no value ("$2: unbound variable")`,
        };
      options[word] = value;
      i += 1;
      continue;
    }
    positionals.push({ word, index: i });
  }
  const [first, ...rest] = positionals;
  const ignored: IgnoredWord[] = rest.map((p) => withMeaning(p));
  if (first?.word.startsWith('-')) ignored.unshift(withMeaning(first));
  const result: BootstrapArgs = { options, ignored };
  if (!first || first.word === '')
    result.fatal = 'bootstrap.sh exited: cluster name is not defined (no positional argument)';
  else result.clusterName = first.word;
  return result;
}

function withMeaning(p: { word: string; index: number }): IgnoredWord {
  const eq = p.word.indexOf('=');
  const name = eq > 0 ? p.word.slice(0, eq) : p.word;
  return BootstrapValueOptions.includes(name) ? { ...p, meant: name } : p;
}

/** True when the word names the bootstrap.sh script. */
export function isBootstrapScript(word: string): boolean {
  return /(^|\/)bootstrap\.sh$/.test(word);
}
