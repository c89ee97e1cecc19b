/// Trace lines as UTF-8 bytes, appended part by part: the one writer of a ``TraceRecord``'s
/// line. ``TraceRecord/description`` is made from it, and the replay tool writes it by the
/// megabyte straight into its output, without a string per line, per number or per name.
///
/// Not on the router's path: the router hands out ``TraceRecord`` values and never formats
/// them. A writer keeps the text of the last few fractional numbers it wrote, because one
/// event's lines repeat them (a hit-test's point is the pointer's new position).
package struct TraceText {
    package var bytes: [UInt8] = []
    /// The last fractional numbers written, by bit pattern, with their shortest text.
    private var recent: (Recent, Recent, Recent, Recent) = (.empty, .empty, .empty, .empty)
    private var nextRecent = 0

    private struct Recent {
        var bits: UInt64
        var text: String
        static let empty = Recent(bits: Double.nan.bitPattern, text: "nan")
    }

    package init() {}

    /// The bytes as a string.
    package var string: String { String(decoding: bytes, as: UTF8.self) }

    @inline(__always)
    package mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    package mutating func append(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: text.utf8)
        }
    }

    @inline(__always)
    package mutating func append(byte: UInt8) { bytes.append(byte) }

    /// `value` in decimal.
    package mutating func append(_ value: Int64) {
        Self.appendDecimal(value, to: &bytes)
    }

    /// `value` in decimal, written into `bytes` with no intermediate string.
    package static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var count = 0
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: buffer[(24 - count)...])
        }
    }

    /// `value` as ``Swift/Double/compactDescription`` writes it: whole numbers below 1e15 as
    /// integers, others in Swift's shortest round-trip form ("0.5", "1e-05", "nan").
    package mutating func append(compact value: Double) {
        if abs(value) < 1e15, Double(Int64(value)) == value {
            append(Int64(value))
            return
        }
        let bits = value.bitPattern
        if let text = recentText(bits) {
            append(text)
            return
        }
        let text = value.description
        append(text)
        switch nextRecent {
        case 0: recent.0 = Recent(bits: bits, text: text)
        case 1: recent.1 = Recent(bits: bits, text: text)
        case 2: recent.2 = Recent(bits: bits, text: text)
        default: recent.3 = Recent(bits: bits, text: text)
        }
        nextRecent = (nextRecent + 1) & 3
    }

    private func recentText(_ bits: UInt64) -> String? {
        if recent.0.bits == bits { return recent.0.text }
        if recent.1.bits == bits { return recent.1.text }
        if recent.2.bits == bits { return recent.2.text }
        if recent.3.bits == bits { return recent.3.text }
        return nil
    }

    /// A time in microseconds as milliseconds, as ``Timestamp/description`` writes it
    /// ("12.5ms"): the exact decimal, which is Swift's shortest form for times of this size.
    package mutating func append(milliseconds microseconds: Int64) {
        guard microseconds.magnitude < 1_000_000_000_000 else {
            append(compact: Double(microseconds) / 1000)
            append("ms")
            return
        }
        if microseconds < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = Int64(microseconds.magnitude)
        append(magnitude / 1000)
        var fraction = magnitude % 1000
        if fraction != 0 {
            bytes.append(UInt8(ascii: "."))
            var divisor: Int64 = 100
            while fraction != 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
                fraction %= divisor
                divisor /= 10
            }
        }
        append("ms")
    }

    /// "(x, y)", as ``Point`` and ``Vector`` describe themselves.
    package mutating func append(pair x: Double, _ y: Double) {
        bytes.append(UInt8(ascii: "("))
        append(compact: x)
        append(", ")
        append(compact: y)
        bytes.append(UInt8(ascii: ")"))
    }

    /// The subject as ``TraceSubject/description`` names it.
    package mutating func append(_ subject: TraceSubject) {
        switch subject {
        case .surface(_, let name): append(name)
        case .output(let name): append("output:"); append(name)
        case .delegate: append("delegate")
        case .none: append("nothing")
        }
    }

    /// "t2" for touch slot 2.
    package mutating func append(_ touch: TouchID) {
        bytes.append(UInt8(ascii: "t"))
        append(Int64(touch.rawValue))
    }

    package mutating func append(_ kind: RoutedEventKind) {
        append(kind.rawValue)
    }
}
