// Linux only: the built-in client's name lookups (NativeSession); macOS uses URLSession.
#if os(Linux)
@testable import ExpenseLogHTTP
import Foundation
import Synchronization
import Testing

/// The built-in client's host-name lookups: kept a minute, shared, bounded by the transfer's deadline and cancellation.
@Suite struct AddressCacheTests {
    static let loopback = SocketAddress(family: 2, type: 1, proto: 6, bytes: [2, 0, 0, 80, 127, 0, 0, 1] + [UInt8](repeating: 0, count: 8))

    @Test("a name is looked up once while its answer is fresh, again once it is stale")
    func answersAreKept() throws {
        let calls = Mutex(0)
        let resolve: AddressCache.Resolver = { _, _ in
            calls.withLock { $0 += 1 }
            return .success([Self.loopback])
        }
        let deadline = ContinuousClock.now + .seconds(5)
        let kept = AddressCache(resolve: resolve, lifetime: .seconds(60))
        for _ in 0..<3 { _ = try kept.addresses(of: "script.google.com", port: 443, until: deadline, stop: StopFlag()) }
        #expect(calls.withLock { $0 } == 1)
        _ = try kept.addresses(of: "script.googleusercontent.com", port: 443, until: deadline, stop: StopFlag())
        #expect(calls.withLock { $0 } == 2)
        let stale = AddressCache(resolve: resolve, lifetime: .zero)
        for _ in 0..<2 { _ = try stale.addresses(of: "script.google.com", port: 443, until: deadline, stop: StopFlag()) }
        #expect(calls.withLock { $0 } == 4)
    }

    @Test("a lookup that hangs ends the transfer at its deadline (nothing was sent) or at a cancellation; its late answer is kept")
    func hangingLookup() throws {
        let resolver = HangingResolver()
        let (release, hanging) = (resolver.release, AddressCache(resolve: resolver.resolve))
        let started = ContinuousClock.now
        #expect(throws: NetworkFailure.lookupTimedOut) {
            try hanging.addresses(of: "slow.example", port: 443, until: started + .milliseconds(300), stop: StopFlag())
        }
        #expect(ContinuousClock.now - started < .seconds(3))
        let stop = StopFlag()
        stop.set()
        #expect(throws: NetworkFailure.other("the request was cancelled")) {
            try hanging.addresses(of: "slow.example", port: 443, until: .now + .seconds(30), stop: stop)
        }
        // Both waited on the one lookup, which answers now, for the next transfer.
        release.signal()
        #expect(try hanging.addresses(of: "slow.example", port: 443, until: .now + .seconds(30), stop: StopFlag()).map(\.bytes) == [Self.loopback.bytes])
        #expect(resolver.calls.withLock { $0 } == 1)
    }

    @Test("a failed lookup is not kept: the next transfer asks again")
    func failuresAreNotKept() throws {
        let calls = Mutex(0)
        let cache = AddressCache(resolve: { _, _ in
            let call = calls.withLock { calls -> Int in
                calls += 1
                return calls
            }
            return call == 1 ? .failure(.hostNotFound) : .success([Self.loopback])
        })
        let deadline = ContinuousClock.now + .seconds(5)
        #expect(throws: NetworkFailure.hostNotFound) { try cache.addresses(of: "flaky.example", port: 443, until: deadline, stop: StopFlag()) }
        #expect(try cache.addresses(of: "flaky.example", port: 443, until: deadline, stop: StopFlag()).count == 1)
        #expect(calls.withLock { $0 } == 2)
    }

    @Test("transfers that ask for one name at once share one lookup")
    func concurrentTransfersShareALookup() async throws {
        let resolver = HangingResolver()
        let (release, cache) = (resolver.release, AddressCache(resolve: resolver.resolve))
        let waiting = Mutex(0)
        let done = DispatchGroup()
        for _ in 0..<4 {
            done.enter()
            Thread.detachNewThread {
                waiting.withLock { $0 += 1 }
                _ = try? cache.addresses(of: "script.google.com", port: 443, until: .now + .seconds(30), stop: StopFlag())
                done.leave()
            }
        }
        while waiting.withLock({ $0 }) < 4 { try await Task.sleep(for: .milliseconds(5)) }
        release.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(resolver.calls.withLock { $0 } == 1)
    }

    @Test("the system's resolver: localhost is this machine, a name under .invalid (RFC 6761) is not found, an address is itself")
    func systemResolver() throws {
        let cache = AddressCache()
        let deadline = ContinuousClock.now + .seconds(10)
        let local = try cache.addresses(of: "localhost", port: 8080, until: deadline, stop: StopFlag())
        #expect(!local.isEmpty && local.allSatisfy { $0.family == AF_INET || $0.family == AF_INET6 })
        // Nowhere (RFC 6761): not found, or, where the configured DNS server cannot be reached, not in time.
        do {
            _ = try cache.addresses(of: "expense-log.invalid", port: 443, until: .now + .seconds(3), stop: StopFlag())
            Issue.record("a name under .invalid resolved")
        } catch {
            #expect(error == .hostNotFound || error == .lookupTimedOut)
        }
        let address = try cache.addresses(of: "127.0.0.1", port: 80, until: deadline, stop: StopFlag())
        #expect(address.map(\.bytes) == [Self.loopback.bytes])
    }
}
/// A resolver that counts its lookups and answers the loopback address once `release` is signalled, once per lookup.
private final class HangingResolver: Sendable {
    let release = DispatchSemaphore(value: 0)
    let calls = Mutex(0)

    var resolve: AddressCache.Resolver {
        { [self] _, _ in
            calls.withLock { $0 += 1 }
            release.wait()
            return .success([AddressCacheTests.loopback])
        }
    }
}
#endif
