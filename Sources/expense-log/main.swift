import ExpenseLogCLI
import Foundation

// The executable only wires the process to the library, so every behaviour is testable in-process too.
let code = await ExpenseLogCommand.main(arguments: Array(CommandLine.arguments.dropFirst()),
                                        environment: ProcessInfo.processInfo.environment, io: .process)
exit(code)
