// A server command whose start takes until its stdin says "go" (the test signals it meanwhile);
// stopping prints a line. argv: the command's flags (none), env WORKER=1 for a worker's settings.
import { runServerCommand } from '../../runtime/controlplane/command.js';

const worker = process.env['WORKER'] === '1';
runServerCommand({
  name: 'signals-child',
  usage: 'usage',
  parse: () => ({ help: false }),
  async start() {
    console.log('signals-child: starting');
    await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
    // What a real server's listening socket does: the process lives until the server stops.
    const serving = setInterval(() => {}, 60_000);
    return {
      readyLines: ['ready'],
      stop: async () => {
        await new Promise((r) => setTimeout(r, 50));
        clearInterval(serving);
        console.log('signals-child: stopped');
      },
    };
  },
  ...(worker ? { stopSignals: ['SIGTERM'] as NodeJS.Signals[], exitOnSecondSignal: false, handleSignalsDuringStart: false } : {}),
});
