import type { Command } from 'commander';

/** `tenon play`: the playground's default scenario. Until the simulated world lands it says what is coming. */
export function registerPlay(program: Command): void {
  program
    .command('play')
    .description('run the playground with its default scenario (the tour)')
    .action(() => {
      process.stdout.write(
        [
          'Tenon playground',
          '',
          'The playground (embedded API server, simulated EC2 and kubelets, and the controllers) is being built.',
          'Available today: `npx tenon --help` lists the commands that work.',
          '',
        ].join('\n'),
      );
    });
}
