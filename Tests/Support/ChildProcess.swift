import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process the tests start with posix_spawn, instead of Foundation's `Process`: on Linux, `Process.run()`
/// over-reads a `dirent` while listing `/proc/self/fd` (swift-corelibs-foundation pull request 5472, fixed after
/// Swift 6.3.1) and crashed the test process about one run in five.
public final class ChildProcess: Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// A file, opened for reading (stdin) or writing, truncated (stdout, stderr).
        case file(String)
        /// A pipe whose other end the test holds (`input` or `output`).
        case pipe
        /// `/dev/null`.
        case null
        /// The test process's own.
        case inherit
    }

    /// The child's process id.
    public let pid: pid_t
    /// The write end of the child's stdin when it is `.pipe`.
    public let input: FileHandle?
    /// The read end of the child's stdout when it is `.pipe`.
    public let output: FileHandle?
    private let exit = ExitBox()

    /// Starts `executable` (a path) with `arguments`; `environment` nil keeps the test's own. Only the three standard
    /// streams reach the child: every other descriptor is closed in it, as `Process` does.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        stdin: Stream = .null, stdout: Stream = .inherit, stderr: Stream = .inherit
    ) throws {
        var actions = Spawn.newActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var opened: [Int32] = []
        defer { opened.forEach { close($0) } }
        var ends: [Int32: FileHandle] = [:]
        for (target, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            let fd: Int32
            switch stream {
            case .inherit:
                // Darwin closes every descriptor no file action names (POSIX_SPAWN_CLOEXEC_DEFAULT below), so the
                // test's own stream is named to be kept (spawn.h: posix_spawn_file_actions_addinherit_np, macOS 10.7).
                #if canImport(Darwin)
                posix_spawn_file_actions_addinherit_np(&actions, target)
                #endif
                continue
            case .file(let path):
                fd =
                    target == 0
                    ? open(path, O_RDONLY | O_CLOEXEC) : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            case .null:
                fd = open("/dev/null", O_RDWR | O_CLOEXEC)
            case .pipe:
                var both: [Int32] = [-1, -1]
                guard Self.makePipe(&both) == 0 else {
                    throw ChildProcessError("pipe: \(String(cString: strerror(errno)))")
                }
                fd = target == 0 ? both[0] : both[1]
                ends[target] = FileHandle(fileDescriptor: target == 0 ? both[1] : both[0], closeOnDealloc: true)
            }
            guard fd >= 0 else { throw ChildProcessError("\(stream): \(String(cString: strerror(errno)))") }
            opened.append(fd)
            posix_spawn_file_actions_adddup2(&actions, fd, target)
        }
        try Spawn.closeFrom(&actions, 3)
        if let directory { try Spawn.changeDirectory(&actions, directory) }
        var attributes = Spawn.newAttributes()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        #if canImport(Darwin)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
        #endif
        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") }
        defer { (argv + envp).forEach { free($0) } }
        var spawned: pid_t = 0
        let status = posix_spawn(&spawned, executable, &actions, &attributes, argv + [nil], envp + [nil])
        guard status == 0 else { throw ChildProcessError("\(executable): \(String(cString: strerror(status)))") }
        let child = spawned
        pid = child
        (input, output) = (ends[0], ends[1])
        let exit = self.exit
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0, errno == EINTR {}
            // As `Process.terminationStatus`: the exit code, or the signal that ended it.
            exit.finish(status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F)
        }
    }

    /// Waits for the end; returns the exit code, or the number of the signal that ended the child.
    public func wait() async -> Int32 {
        await exit.value()
    }

    /// Waits for the end, blocking the thread (for helpers that are not async).
    public func waitBlocking() -> Int32 {
        exit.blockingValue()
    }

    /// Sends a signal.
    public func signal(_ number: Int32) {
        kill(pid, number)
    }

    /// A pipe whose ends other children do not inherit.
    private static func makePipe(_ both: inout [Int32]) -> Int32 {
        guard pipe(&both) == 0 else { return -1 }
        _ = fcntl(both[0], F_SETFD, FD_CLOEXEC)
        return fcntl(both[1], F_SETFD, FD_CLOEXEC)
    }
}

/// What posix_spawn needs that differs by C library. glibc's file actions and attributes are structs; Darwin's are
/// opaque pointers (`typedef void *posix_spawn_file_actions_t` in the macOS SDK's spawn.h), which Swift imports as
/// optional raw pointers that `…_init` fills. The file actions glibc declares only under `_GNU_SOURCE` (which Swift's
/// Glibc module is built without) are looked up by name (glibc 2.34 and later has both); Darwin declares
/// `addchdir_np` (macOS 10.15) and closes the other descriptors with `POSIX_SPAWN_CLOEXEC_DEFAULT`.
private enum Spawn {
    #if canImport(Darwin)
    typealias FileActions = posix_spawn_file_actions_t?
    typealias Attributes = posix_spawnattr_t?
    static func newActions() -> FileActions { nil }
    static func newAttributes() -> Attributes { nil }
    #else
    typealias FileActions = posix_spawn_file_actions_t
    typealias Attributes = posix_spawnattr_t
    static func newActions() -> FileActions { posix_spawn_file_actions_t() }
    static func newAttributes() -> Attributes { posix_spawnattr_t() }
    #endif
    typealias Actions = UnsafeMutablePointer<FileActions>

    static func closeFrom(_ actions: Actions, _ lowest: Int32) throws {
        // Linux only: Darwin closes every descriptor no file action names, by POSIX_SPAWN_CLOEXEC_DEFAULT (see init).
        #if canImport(Glibc)
        typealias Function = @convention(c) (Actions, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else {
            throw ChildProcessError(
                "this C library has no posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or later has)")
        }
        _ = unsafeBitCast(symbol, to: Function.self)(actions, lowest)
        #endif
    }

    static func changeDirectory(_ actions: Actions, _ path: String) throws {
        #if canImport(Glibc)
        typealias Function = @convention(c) (Actions, UnsafePointer<CChar>) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else {
            throw ChildProcessError(
                "this C library has no posix_spawn_file_actions_addchdir_np (glibc 2.29 or later has)")
        }
        _ = unsafeBitCast(symbol, to: Function.self)(actions, path)
        #else
        posix_spawn_file_actions_addchdir_np(actions, path)
        #endif
    }
}

/// Why a child could not be started.
public struct ChildProcessError: Error, CustomStringConvertible {
    /// What failed, in words.
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The exit status of a process, delivered once to whoever waits for it.
public final class ExitBox: Sendable {
    private let state = Mutex<(status: Int32?, waiters: [CheckedContinuation<Int32, Never>])>((nil, []))
    private let done = DispatchSemaphore(value: 0)

    /// An empty box.
    public init() {}

    /// Delivers the status to every waiter, once.
    public func finish(_ status: Int32) {
        let waiters = state.withLock { state in
            state.status = status
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: status) }
        done.signal()
    }

    /// The status, once delivered.
    public func value() async -> Int32 {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Int32? in
                if let status = state.status { return status }
                state.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// The status, blocking the thread until it is delivered.
    func blockingValue() -> Int32 {
        if let status = state.withLock({ $0.status }) { return status }
        done.wait()
        done.signal()
        return state.withLock { $0.status } ?? -1
    }
}
