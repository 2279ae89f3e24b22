/// A `JSONDecoder` failure in words: where in the document, and what was wrong.
enum DecodingProblem {
    /// "malformed or cut-off JSON in N bytes", or the path of the bad value and what was expected.
    static func describe(_ error: any Error, bytes: Int) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "malformed or cut-off JSON in \(bytes) bytes"
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return "at \(path.isEmpty ? "the top" : path): \(context.debugDescription)"
        @unknown default:
            return String(describing: error)
        }
    }
}
