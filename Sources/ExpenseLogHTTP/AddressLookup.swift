// Linux only: the built-in client's name lookups (NativeSession); macOS uses URLSession.
#if os(Linux)
import Foundation
import Glibc
import Synchronization

/// One address a host name resolves to, as socket(2) and connect(2) take it.
struct SocketAddress: Sendable {
    let family: Int32
    let type: Int32
    let proto: Int32
    /// The `sockaddr` bytes.
    let bytes: [UInt8]
}

/// A session's host names and the addresses they resolved to, kept a minute as curl keeps them: an import's 400
/// connections to one host make one lookup, not 400, and twelve concurrent month requests share one.
final class AddressCache: Sendable {
    /// A lookup: the addresses of a host and port, or why there are none. Blocking.
    typealias Resolver = @Sendable (_ host: String, _ port: Int) -> Result<[SocketAddress], NetworkFailure>

    private enum Entry {
        case resolved([SocketAddress], until: ContinuousClock.Instant)
        case pending(Lookup)
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let resolve: Resolver
    private let lifetime: Duration

    /// A cache over `resolve` (the C library's getaddrinfo), whose answers are used for `lifetime` (curl's default
    /// DNS cache timeout).
    init(resolve: @escaping Resolver = AddressCache.system, lifetime: Duration = .seconds(60)) {
        (self.resolve, self.lifetime) = (resolve, lifetime)
    }

    /// The addresses of `host` (a name or a literal address) at `port`. A name is looked up on a thread of its own, so
    /// that the deadline and a cancellation hold while the C library's resolver waits for a DNS server; the lookup goes
    /// on after a transfer gave up on it, and its answer is kept for the next.
    func addresses(of host: String, port: Int, until deadline: ContinuousClock.Instant, stop: StopFlag) throws(NetworkFailure) -> [SocketAddress] {
        let key = "\(host):\(port)"
        let (lookup, start) = entries.withLock { entries -> (Lookup, Bool) in
            switch entries[key] {
            case .resolved(let addresses, let until) where until > ContinuousClock.now: return (Lookup(done: addresses), false)
            case .pending(let lookup): return (lookup, false)
            default:
                let lookup = Lookup()
                entries[key] = .pending(lookup)
                return (lookup, true)
            }
        }
        if start {
            let finish: @Sendable () -> Void = { [weak self, resolve, lifetime] in
                let result = resolve(host, port)
                self?.entries.withLock { entries in
                    guard case .pending(let pending) = entries[key], pending === lookup else { return }
                    entries[key] = try? .resolved(result.get(), until: ContinuousClock.now + lifetime)
                }
                lookup.finish(result)
            }
            var literal = in6_addr()
            if inet_pton(AF_INET, host, &literal) == 1 || inet_pton(AF_INET6, host, &literal) == 1 {
                finish()  // an address, not a name: nothing to wait for
            } else {
                let thread = Thread(block: finish)
                thread.stackSize = 512 << 10
                thread.start()
            }
        }
        while lookup.group.wait(timeout: .now() + .milliseconds(min(200, Redirects.milliseconds(until: deadline)))) == .timedOut {
            if stop.isSet { throw .other("the request was cancelled") }
            guard ContinuousClock.now < deadline else { throw .lookupTimedOut }
        }
        return try lookup.outcome.withLock { $0 }.get()
    }

    /// getaddrinfo(3): TCP addresses of the families this machine has configured.
    static let system: Resolver = { host, port in
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        let reason = errno
        defer { if let list { freeaddrinfo(list) } }
        if resolved == EAI_SYSTEM { return .failure(.other("the host name could not be resolved (\(String(cString: strerror(reason))))")) }
        var addresses: [SocketAddress] = []
        var next = resolved == 0 ? list : nil
        while let entry = next?.pointee {
            next = entry.ai_next
            guard let address = entry.ai_addr else { continue }
            let bytes = [UInt8](UnsafeRawBufferPointer(start: address, count: Int(entry.ai_addrlen)))
            addresses.append(SocketAddress(family: entry.ai_family, type: entry.ai_socktype, proto: entry.ai_protocol, bytes: bytes))
        }
        return addresses.isEmpty ? .failure(.hostNotFound) : .success(addresses)
    }
}

/// One lookup's outcome, shared by the thread that makes it and every transfer waiting for it.
private final class Lookup: Sendable {
    /// Left once the outcome is in: every waiter wakes.
    let group = DispatchGroup()
    let outcome = Mutex<Result<[SocketAddress], NetworkFailure>>(.failure(.hostNotFound))

    init() {
        group.enter()
    }

    /// A lookup already answered (from the cache).
    init(done addresses: [SocketAddress]) {
        outcome.withLock { $0 = .success(addresses) }
    }

    func finish(_ result: Result<[SocketAddress], NetworkFailure>) {
        outcome.withLock { $0 = result }
        group.leave()
    }
}
#endif
