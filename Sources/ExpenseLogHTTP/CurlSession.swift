// Linux only: macOS uses URLSessionSession (LiveSession.make).
#if os(Linux)
import CCurl
import Foundation
import Synchronization

/// The live session on Linux: libcurl's easy interface, one transfer per request on a thread of `TransferThreads`.
///
/// FoundationNetworking's URLSession spins a core for as long as the server thinks (its write source stays armed
/// on an always-writable socket), and queues every piece of an answer for its delegate without back-pressure.
/// Here the thread sleeps in poll(2) while it waits, the answer's size is checked as each piece arrives (past the
/// limit the transfer stops at once), and the deadline covers the whole transfer.
/// The session keeps its easy handles, and with them the connections a GET left open: the next GET to that server (a
/// month, or the redirect after a POST) skips the connect, and with https the TLS handshake. Any other request has
/// a connection of its own, so a POST is never re-sent on a reused connection that died.
///
/// Proxies are read from the session's environment as curl reads them (`http_proxy`, `https_proxy`, `all_proxy`,
/// `no_proxy`) and set on each handle, so that the environment given is the one obeyed; name lookups and
/// connects are libcurl's, with its happy eyeballs (an address that does not answer gives way to the next within
/// 200 ms); the certificates trusted are the system's, or those `SSL_CERT_FILE`/`SSL_CERT_DIR` name, on every path.
public struct CurlSession: Session {
    private let handles = CurlHandles()
    private let trust: CertificateTrust
    private let proxies: CurlProxies

    /// A session trusting and going through what `environment` names; libcurl is set up once per process.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        trust = CertificateTrust(environment: environment)
        proxies = CurlProxies(environment: environment)
        // Loading libcurl and the libraries it needs takes some milliseconds: begun now, on the thread the first
        // transfer will take, it overlaps what the command does before its first request (the config, the cache).
        TransferThreads.shared.run {
            _ = curlProblem
            return {}
        }
    }

    /// Sends the request and follows redirects before its deadline; failures come back as `TransportError`s.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if let problem = curlProblem { throw TransportError.network(url: request.url, reason: .other(problem)) }
        return try await Redirects.follow(request, until: ContinuousClock.now + .seconds(request.timeout)) {
            hop, deadline in
            try await perform(hop, until: deadline)
        }
    }

    /// One hop, on a thread of `TransferThreads`: a blocking transfer must never hold a thread of the cooperative pool.
    func perform(_ request: HTTPRequest, until deadline: ContinuousClock.Instant) async throws -> HTTPResponse {
        let stop = StopFlag()
        let milliseconds = Redirects.milliseconds(until: deadline)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                TransferThreads.shared.run { [handles, trust, proxies] in
                    let outcome = Result {
                        guard let handle = handles.take() else {
                            throw TransportError.network(
                                url: request.url, reason: .other("libcurl could not start a transfer"))
                        }
                        defer { handles.give(handle) }
                        return try CurlTransfer(request, stop: stop, trust: trust, proxies: proxies).run(
                            on: handle, milliseconds: milliseconds)
                    }
                    return { continuation.resume(with: outcome) }
                }
            }
        } onCancel: {
            stop.set()
        }
    }
}

/// Why libcurl cannot be used, or nil once it is loaded and `curl_global_init` has run: once, before the first
/// transfer (libcurl asks for that before any thread uses it), and only by a run that goes to the network.
private let curlProblem: String? = {
    var reason = [CChar](repeating: 0, count: 512)
    guard el_curl_load(&reason, reason.count) != 0 else { return nil }
    return String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}()

/// A session's easy handles not in use, the most recently used last: each keeps the connections its GETs left open.
final class CurlHandles: Sendable {
    /// The idle handles' addresses (a `CURL *` is a `void *`; an address is what may cross threads).
    private let idle = Mutex<[UInt]>([])

    /// An idle handle reset to libcurl's defaults, or a new one; nil when libcurl cannot make one.
    func take() -> UnsafeMutableRawPointer? {
        if let address = idle.withLock({ $0.popLast() }), let handle = UnsafeMutableRawPointer(bitPattern: address) {
            el_easy_reset(handle)
            return handle
        }
        return el_easy_init()
    }

    /// Puts a handle back for the next transfer.
    func give(_ handle: UnsafeMutableRawPointer) {
        idle.withLock { $0.append(UInt(bitPattern: handle)) }
    }

    deinit {
        for address in idle.withLock({ $0 }) {
            if let handle = UnsafeMutableRawPointer(bitPattern: address) { el_easy_cleanup(handle) }
        }
    }
}

/// The proxies the usual variables name, as curl reads them: `https_proxy` (or `HTTPS_PROXY`) for https, `http_proxy`
/// (lower case only: a web server's CGI sets `HTTP_PROXY` from a request's header) for http, `all_proxy` (or
/// `ALL_PROXY`) for either; `no_proxy` (or `NO_PROXY`) lists the hosts reached directly.
struct CurlProxies: Sendable {
    let http: String
    let https: String
    let exceptions: String

    init(environment: [String: String]) {
        func first(_ names: [String]) -> String? { names.lazy.compactMap { environment[$0] }.first { !$0.isEmpty } }
        let all = first(["all_proxy", "ALL_PROXY"])
        http = first(["http_proxy"]) ?? all ?? ""
        https = first(["https_proxy", "HTTPS_PROXY"]) ?? all ?? ""
        exceptions = first(["no_proxy", "NO_PROXY"]) ?? ""
    }

    /// The proxy for a URL, "" for none.
    func proxy(for url: URL) -> String {
        url.scheme?.lowercased() == "https" ? https : http
    }
}

/// Set when the task waiting for a transfer is cancelled; libcurl's progress callback then stops it.
final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)

    func set() { value.store(true, ordering: .relaxed) }

    var isSet: Bool { value.load(ordering: .relaxed) }
}

/// One HTTP exchange through a libcurl easy handle; used by one thread only.
final class CurlTransfer {
    let request: HTTPRequest
    let stop: StopFlag
    let trust: CertificateTrust
    let proxies: CurlProxies
    private(set) var body = Data()
    private(set) var headers: [String: String] = [:]
    private(set) var tooLarge = false

    init(_ request: HTTPRequest, stop: StopFlag, trust: CertificateTrust, proxies: CurlProxies) {
        (self.request, self.stop, self.trust, self.proxies) = (request, stop, trust, proxies)
    }

    /// Performs the transfer on `handle`, blocking the calling thread until it ends or `milliseconds` pass.
    func run(on handle: UnsafeMutableRawPointer, milliseconds: Int) throws -> HTTPResponse {
        var list: UnsafeMutablePointer<curl_slist>?
        defer { el_slist_free_all(list) }
        var fields = request.headers.map { "\($0.key): \($0.value)" }
        // No `Expect: 100-continue` round trip before a large POST body.
        if request.method == "POST" { fields.append("Expect:") }
        for field in fields { list = el_slist_append(list, field) }

        let context = Unmanaged.passUnretained(self).toOpaque()
        let url = strdup(request.url.absoluteString)
        defer { free(url) }
        el_setopt_pointer(handle, CURLOPT_URL, url)
        el_allow_web_only(handle)
        el_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        el_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        el_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds)
        el_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
        // libcurl reads no trust variable itself (the curl tool does): set on the handle, so every path trusts the same.
        if let file = trust.file { el_setopt_pointer(handle, CURLOPT_CAINFO, file) }
        if let folder = trust.folder { el_setopt_pointer(handle, CURLOPT_CAPATH, folder) }
        // "" is no proxy, whatever the process's own variables say.
        el_setopt_pointer(handle, CURLOPT_PROXY, proxies.proxy(for: request.url))
        el_setopt_pointer(handle, CURLOPT_NOPROXY, proxies.exceptions)
        if request.method != "GET" {
            // libcurl sends a request again when a reused connection turns out dead; only a GET may be sent twice.
            el_setopt_long(handle, CURLOPT_FRESH_CONNECT, 1)
            el_setopt_long(handle, CURLOPT_FORBID_REUSE, 1)
        }
        el_setopt_pointer(handle, CURLOPT_HTTPHEADER, list)
        el_setopt_pointer(handle, CURLOPT_ACCEPT_ENCODING, "")
        el_setopt_data_callback(
            handle, CURLOPT_WRITEFUNCTION,
            { data, size, count, context in
                guard let data, let context else { return 0 }
                return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().received(data, size * count)
            })
        el_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        el_setopt_data_callback(
            handle, CURLOPT_HEADERFUNCTION,
            { data, size, count, context in
                guard let data, let context else { return 0 }
                return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().header(data, size * count)
            })
        el_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        el_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
        el_setopt_progress_callback(handle) { context, _, _, _, _ in
            guard let context else { return 0 }
            return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().stop.isSet ? 1 : 0
        }
        el_setopt_pointer(handle, CURLOPT_XFERINFODATA, context)

        let code: CURLcode = (request.body ?? Data()).withUnsafeBytes { bytes in
            switch request.method {
            case "GET": el_setopt_long(handle, CURLOPT_HTTPGET, 1)
            case "POST": el_setopt_long(handle, CURLOPT_POST, 1)
            default: el_setopt_pointer(handle, CURLOPT_CUSTOMREQUEST, request.method)
            }
            if request.body != nil {
                el_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
                el_setopt_pointer(handle, CURLOPT_POSTFIELDS, bytes.baseAddress)
            }
            return el_easy_perform(handle)
        }
        if code == CURLE_OK {
            return HTTPResponse(status: el_response_code(handle), headers: headers, body: body, url: request.url)
        }
        if tooLarge { throw TransportError.answerTooLarge(url: request.url, limit: request.maxAnswerBytes) }
        if code == CURLE_SSL_CACERT_BADFILE, let named = trust.file ?? trust.folder {
            throw TransportError.network(
                url: request.url,
                reason: .tls(
                    "the trusted certificates could not be read from \(named) "
                        + "(SSL_CERT_FILE or SSL_CERT_DIR)"))
        }
        throw TransportError.network(url: request.url, reason: NetworkFailure(code))
    }

    /// A piece of the body; refusing it (returning less than its size) stops the transfer at the size limit.
    private func received(_ data: UnsafeMutablePointer<CChar>, _ size: Int) -> Int {
        guard body.count + size <= request.maxAnswerBytes else {
            tooLarge = true
            return 0
        }
        body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: size)
        return size
    }

    /// A header line; a status line starts a new set (a `100 Continue` may come before the answer).
    private func header(_ data: UnsafeMutablePointer<CChar>, _ size: Int) -> Int {
        let line = UnsafeRawBufferPointer(start: data, count: size)
        if line.starts(with: "HTTP/".utf8) {
            headers = [:]
        } else {
            // a line without a colon (the blank one that ends the head) adds nothing
            _ = HeaderLine.add(line, to: &headers)
        }
        return size
    }
}

extension NetworkFailure {
    init(_ code: CURLcode) {
        let text = String(cString: el_easy_strerror(code))
        switch code {
        case CURLE_OPERATION_TIMEDOUT: self = .timedOut
        case CURLE_ABORTED_BY_CALLBACK: self = .other("the request was cancelled")
        case CURLE_UNSUPPORTED_PROTOCOL: self = .redirect("not an http(s) URL")
        case CURLE_COULDNT_CONNECT: self = .refused
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: self = .hostNotFound
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            self = .tls(text)
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE: self = .connectionLost
        default: self = .other("\(text) (libcurl error \(code.rawValue))")
        }
    }
}
#endif
