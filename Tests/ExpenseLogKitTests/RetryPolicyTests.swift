import ExpenseLogClient
import ExpenseLogModel
import Foundation
import Synchronization
import Testing

/// An instant in UTC built by Foundation's Gregorian calendar, an independent reference for the HTTP date parser.
func utcDate(
    _ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0
) throws -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
    let parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    return try #require(calendar.date(from: parts))
}

/// A `random` stand-in that records the range it was asked for and answers a fixed point inside it.
final class RangeRecorder: Sendable {
    private let recorded = Mutex<[ClosedRange<Double>]>([])
    /// Where in the range to answer: 0 is the lower bound, 1 the upper.
    let fraction: Double

    init(fraction: Double = 1) { self.fraction = fraction }

    var ranges: [ClosedRange<Double>] { recorded.withLock { $0 } }

    func pick(_ range: ClosedRange<Double>) -> Double {
        recorded.withLock { $0.append(range) }
        return range.lowerBound + (range.upperBound - range.lowerBound) * fraction
    }
}

@Suite("Retry policy: backoff with full jitter, or the server's Retry-After")
struct RetryPolicyTests {
    @Test("the defaults are the contract's: 3 retries, base 0.5 s, cap 8 s, Retry-After up to 60 s")
    func defaults() {
        let policy = RetryPolicy()
        #expect(policy.maxRetries == 3)
        #expect(RetryPolicy.defaultRetries == 3)
        #expect(policy.base == 0.5)
        #expect(policy.cap == 8)
        #expect(policy.retryAfterCap == 60)
    }

    @Test(
        "the jitter range starts at 0 and its ceiling doubles from base per retry until the cap",
        arguments: [(1, 0.5), (2, 1.0), (3, 2.0), (4, 4.0), (5, 8.0), (6, 8.0), (10, 8.0)])
    func ceilingDoubles(retry: Int, ceiling: Double) {
        let recorder = RangeRecorder(fraction: 1)
        let delay = RetryPolicy().delay(beforeRetry: retry, retryAfter: nil, random: recorder.pick)
        #expect(recorder.ranges == [0...ceiling])
        #expect(delay == ceiling)
    }

    @Test("the wait is the random draw itself, anywhere from 0 up to the ceiling")
    func delayIsTheDraw() {
        let low = RangeRecorder(fraction: 0)
        let middle = RangeRecorder(fraction: 0.25)
        #expect(RetryPolicy().delay(beforeRetry: 3, retryAfter: nil, random: low.pick) == 0)
        #expect(RetryPolicy().delay(beforeRetry: 3, retryAfter: nil, random: middle.pick) == 0.5)
    }

    @Test("a custom base and cap shape the ceilings")
    func customBaseAndCap() {
        let recorder = RangeRecorder()
        let policy = RetryPolicy(maxRetries: 5, base: 2, cap: 5)
        for retry in 1...4 { _ = policy.delay(beforeRetry: retry, retryAfter: nil, random: recorder.pick) }
        #expect(recorder.ranges.map(\.upperBound) == [2, 4, 5, 5])
        #expect(recorder.ranges.allSatisfy { $0.lowerBound == 0 })
    }

    @Test("a very late retry number stays at the cap instead of overflowing")
    func hugeRetryNumber() {
        let recorder = RangeRecorder()
        let delay = RetryPolicy().delay(beforeRetry: 1_000, retryAfter: nil, random: recorder.pick)
        #expect(delay == 8)
    }

    @Test("the real random draw stays within [0, ceiling] and is actually jittered")
    func realJitter() throws {
        let policy = RetryPolicy()
        let delays = try (0..<200).map { _ in try #require(policy.delay(beforeRetry: 3, retryAfter: nil)) }
        #expect(delays.allSatisfy { (0...2).contains($0) })
        #expect(Set(delays).count > 1, "full jitter must not always wait the same time")
    }

    @Test(
        "a Retry-After within the cap is the exact wait, with no random draw",
        arguments: [0.0, 1, 7, 59.5, 60])
    func retryAfterHonoured(seconds: Double) {
        let recorder = RangeRecorder()
        #expect(RetryPolicy().delay(beforeRetry: 1, retryAfter: seconds, random: recorder.pick) == seconds)
        #expect(RetryPolicy().delay(beforeRetry: 4, retryAfter: seconds, random: recorder.pick) == seconds)
        #expect(recorder.ranges.isEmpty)
    }

    @Test("a Retry-After above the cap means no retry (nil)", arguments: [60.001, 61, 3600])
    func retryAfterTooLong(seconds: Double) {
        #expect(RetryPolicy().delay(beforeRetry: 1, retryAfter: seconds) == nil)
    }

    @Test("the Retry-After cap is configurable")
    func retryAfterCustomCap() {
        let policy = RetryPolicy(retryAfterCap: 10)
        #expect(policy.delay(beforeRetry: 1, retryAfter: 10) == 10)
        #expect(policy.delay(beforeRetry: 1, retryAfter: 11) == nil)
    }

    @Test("a negative Retry-After never becomes a negative wait")
    func negativeRetryAfter() {
        #expect(RetryPolicy().delay(beforeRetry: 1, retryAfter: -5) == 0)
    }
}

@Suite("Retry-After header values")
struct RetryAfterTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(
        "delay-seconds are read as seconds, whatever now is",
        arguments: [("0", 0.0), ("1", 1), ("120", 120), (" 7 ", 7), ("0030", 30)])
    func delaySeconds(text: String, seconds: Double) {
        #expect(RetryAfter.seconds(text, now: Self.now) == seconds)
    }

    @Test(
        "the three HTTP date forms name the same instant (06 Nov 1994 08:49:37 GMT)",
        arguments: [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
        ])
    func httpDateForms(text: String) throws {
        let instant = try utcDate(1994, 11, 6, 8, 49, 37)
        #expect(RetryAfter.seconds(text, now: instant.addingTimeInterval(-90)) == 90)
        #expect(RetryAfter.seconds(text, now: instant) == 0)
    }

    @Test(
        "an HTTP date is read in GMT for recent dates too, month names in any case",
        arguments: [
            ("Tue, 14 Nov 2023 22:13:20 GMT", 2023, 11, 14, 22, 13, 20),
            ("Thu, 29 Feb 2024 23:59:59 GMT", 2024, 2, 29, 23, 59, 59),
            ("Wednesday, 31-Jan-24 00:00:01 GMT", 2024, 1, 31, 0, 0, 1),
            ("Fri Dec 31 12:00:00 1999", 1999, 12, 31, 12, 0, 0),
            ("mon, 01 JAN 2024 00:00:00 GMT", 2024, 1, 1, 0, 0, 0),
        ])
    func recentDates(text: String, year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) throws {
        let instant = try utcDate(year, month, day, hour, minute, second)
        #expect(RetryAfter.seconds(text, now: instant.addingTimeInterval(-42.5)) == 42.5)
    }

    @Test("an HTTP date in the past means no wait, never a negative one")
    func pastDate() {
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: Self.now) == 0)
    }

    @Test(
        "anything else is not understood (nil)",
        arguments: [
            "", "soon", "-5", "+5", "1.5", "5 s", "0x10",
            "Sun, 31 Feb 1994 08:49:37 GMT",  // no such day
            "Sun, 06 Foo 1994 08:49:37 GMT",  // no such month
            "Sun, 06 Nov 1994 24:00:00 GMT",  // no such hour
            "Sun, 06 Nov 1994 08:61:00 GMT",  // no such minute
            "Sun, 06 Nov 1994 08:49 GMT",  // no seconds
            "Sun, 06 Nov 1994 GMT",  // no time
            "Sun, Nov 1994 08:49:37 GMT",  // no day
            "Sun, 06 Nov 1994 08:49:37 PST",  // not GMT
        ])
    func notUnderstood(text: String) {
        #expect(RetryAfter.seconds(text, now: Self.now) == nil)
    }
}
