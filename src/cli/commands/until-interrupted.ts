/** Long-running commands (apiserver, serve) run until Ctrl-C or SIGTERM, then stop cleanly. */

/** Resolves after the first SIGINT or SIGTERM once `stop` has finished; a failing stop is reported and sets exit code 1. */
export function untilInterrupted(stop: () => Promise<void>): Promise<void> {
  return new Promise<void>((done) => {
    let stopping = false;
    // Handled for good, not once: a second signal (Ctrl-C reaches a relaunched child twice) must not kill the
    // process halfway through stopping.
    const onSignal = (): void => {
      if (stopping) return;
      stopping = true;
      void stop().then(done, (e: unknown) => {
        process.stderr.write(`stopping failed: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exitCode = 1;
        done();
      });
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
