import Foundation

/// An element of an XML document as Python's `xml.etree` read it, in document order: the tests read every SVG back with
/// Python, not with the code under test.
public struct XMLElementRead: Decodable, Sendable {
    /// The local name (`svg`, `path`, `text`…).
    public let tag: String
    /// The namespace URI, or "".
    public let ns: String
    /// The attributes.
    public let attrs: [String: String]
    /// Every text inside it, as `itertext()` joins it (a child's `<title>` included).
    public let text: String
    /// Its own text, before any child element.
    public let own: String

    /// An attribute read as a number.
    public func number(_ name: String) -> Double? { attrs[name].flatMap(Double.init) }
}

/// Why Python refused a document.
public struct PythonXMLError: Error, CustomStringConvertible {
    /// What Python said.
    public let description: String
}

/// The elements of an XML document, read by Python's `xml.etree`; throws what Python said when it is not well-formed
/// (one root element, no character XML refuses).
public func parsedByPython(_ xml: String) throws -> [XMLElementRead] {
    let script = """
        import json, sys
        import xml.etree.ElementTree as ET
        try:
            root = ET.fromstring(sys.stdin.buffer.read())
        except ET.ParseError as error:
            sys.stdout.write("not well-formed: %s" % error)
            sys.exit(3)
        out = []
        for element in root.iter():
            ns, _, tag = element.tag[1:].partition("}") if element.tag.startswith("{") else ("", "", element.tag)
            out.append({"tag": tag, "ns": ns, "attrs": dict(element.attrib), "text": "".join(element.itertext()),
                        "own": element.text or ""})
        sys.stdout.buffer.write(json.dumps(out, ensure_ascii=False).encode("utf-8"))
        """
    let process = try ChildProcess("/usr/bin/env", ["python3", "-c", script], stdin: .pipe, stdout: .pipe)
    process.input?.write(Data(xml.utf8))
    try process.input?.close()
    let output = process.output?.readDataToEndOfFile() ?? Data()
    let status = process.waitBlocking()
    guard status == 0 else {
        throw PythonXMLError(
            description:
                "python3's xml.etree refused the document (exit \(status)): \(String(decoding: output, as: UTF8.self))")
    }
    return try JSONDecoder().decode([XMLElementRead].self, from: output)
}

/// Every `<svg …>…</svg>` inside a page, in order.
public func svgDocuments(in html: String) -> [String] {
    var found: [String] = []
    var rest = html[...]
    while let start = rest.range(of: "<svg "), let end = rest[start.upperBound...].range(of: "</svg>") {
        found.append(String(rest[start.lowerBound..<end.upperBound]))
        rest = rest[end.upperBound...]
    }
    return found
}
