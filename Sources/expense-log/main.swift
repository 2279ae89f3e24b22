import ExpenseLogCLI
import Foundation

// A reader that goes away (`expense-log register … | head -1`) must not kill the process between a POST and
// recording its outcome: with SIGPIPE ignored, writes to a closed pipe just fail, and the run finishes its bookkeeping.
signal(SIGPIPE, SIG_IGN)

// Ctrl-C, SIGTERM and SIGHUP restore the terminal, remove the temporary files being written, and say what waits.
let io = ConsoleIO.process
let signalSources = io.interruption?.handleSignals() ?? []

// The executable only wires the process to the library, so every behaviour is testable in-process too.
let code = await ExpenseLogCommand.main(
    arguments: ArgumentBytes.processArguments(),
    environment: ProcessInfo.processInfo.environment, io: io)
withExtendedLifetime(signalSources) {}
exit(code)
