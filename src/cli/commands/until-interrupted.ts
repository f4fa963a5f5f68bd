/** Long-running commands (apiserver, serve) run until Ctrl-C or SIGTERM, then stop cleanly. */

/** Resolves after the first SIGINT or SIGTERM once `stop` has finished; a failing stop is reported and sets exit code 1. */
export function untilInterrupted(stop: () => Promise<void>): Promise<void> {
  return new Promise<void>((done) => {
    const onSignal = (): void => {
      void stop().then(done, (e: unknown) => {
        process.stderr.write(`stopping failed: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exitCode = 1;
        done();
      });
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
}
