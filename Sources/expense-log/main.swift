import ExpenseLogCLI
import Foundation

// A reader that goes away (`expense-log register … | head -1`) must not kill the process between a POST and
// recording its outcome: with SIGPIPE ignored, writes to a closed pipe just fail, and the run finishes its bookkeeping.
signal(SIGPIPE, SIG_IGN)

// The executable only wires the process to the library, so every behaviour is testable in-process too.
let code = await ExpenseLogCommand.main(arguments: ArgumentBytes.processArguments(),
                                        environment: ProcessInfo.processInfo.environment, io: .process)
exit(code)
