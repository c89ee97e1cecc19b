/// Trace lines as UTF-8 bytes, appended part by part: the one writer of a ``TraceRecord``'s
/// line. ``TraceRecord/description`` is made from it, and the replay tool writes it by the
/// megabyte straight into its output, without a string per line, per number or per name.
///
/// Not on the router's path: the router hands out ``TraceRecord`` values and never formats
/// them. A writer keeps the text of the last few fractional numbers it wrote, because one
/// event's lines repeat them (a hit-test's point is the pointer's new position).
///
/// The bytes live in memory the writer owns, not in an array: an append is a bounds check
/// and a copy, with none of an array's uniqueness check, and the type cannot be copied (so
/// nothing else can hold the memory). ``reserve(_:)`` and `append(unchecked:)` are the only
/// code that decides where a byte goes; everything else appends through them.
package struct TraceText: ~Copyable {
    /// `count` bytes written at `base`, room for `capacity`.
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    /// How many bytes have been written.
    @usableFromInline package internal(set) var count = 0
    /// The last fractional numbers written, by bit pattern, with their shortest text.
    private var recent: (Recent, Recent, Recent, Recent) = (.empty, .empty, .empty, .empty)
    private var nextRecent = 0

    private struct Recent {
        var bits: UInt64
        var text: String
        static let empty = Recent(bits: Double.nan.bitPattern, text: "nan")
    }

    /// An empty text with room for `capacity` bytes before it first grows.
    package init(capacity: Int = 64) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes as a string.
    package var string: String { string(from: 0) }

    /// The bytes from `start` on, as a string.
    package func string(from start: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: base + start, count: count - start), as: UTF8.self)
    }

    /// The bytes written, valid only during the call.
    package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// The bytes from `start` on, valid only during the call.
    package func withBytes<R>(from start: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base + start, count: count - start))
    }

    /// Forgets the bytes from `newCount` on (all of them by default), keeping the memory.
    package mutating func removeAll(from newCount: Int = 0) {
        precondition(newCount >= 0 && newCount <= count)
        count = newCount
    }

    /// Makes room for `n` more bytes, so that the next `n` can be appended unchecked.
    @inlinable @inline(__always)
    package mutating func reserve(_ n: Int) {
        if capacity &- count < n { grow(n) }
    }

    @usableFromInline
    mutating func grow(_ n: Int) {
        let newCapacity = max(capacity * 2, count + n)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends a byte the caller has made room for with ``reserve(_:)``.
    @inlinable @inline(__always)
    package mutating func append(unchecked byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    @inlinable @inline(__always)
    package mutating func append(byte: UInt8) {
        reserve(1)
        append(unchecked: byte)
    }

    /// Appends bytes, making room for them.
    @inlinable @inline(__always)
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress else { return }
        reserve(bytes.count)
        (base + count).update(from: from, count: bytes.count)
        count &+= bytes.count
    }

    @inlinable @inline(__always)
    package mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    package mutating func append(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            var copy = text
            copy.withUTF8 { append($0) }
        }
    }

    /// `value` in decimal, with no intermediate string.
    package mutating func append(_ value: Int64) {
        reserve(20)
        if value < 0 { append(unchecked: UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 1
        var power: UInt64 = 10
        while digits < 20, magnitude >= power {
            digits += 1
            power = power &* 10
        }
        var at = count &+ digits
        count = at
        repeat {
            at &-= 1
            base[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
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
        if microseconds < 0 { append(byte: UInt8(ascii: "-")) }
        let magnitude = Int64(microseconds.magnitude)
        append(magnitude / 1000)
        var fraction = magnitude % 1000
        if fraction != 0 {
            append(byte: UInt8(ascii: "."))
            var divisor: Int64 = 100
            while fraction != 0 {
                append(byte: UInt8(ascii: "0") + UInt8(fraction / divisor))
                fraction %= divisor
                divisor /= 10
            }
        }
        append("ms")
    }

    /// "(x, y)", as ``Point`` and ``Vector`` describe themselves.
    package mutating func append(pair x: Double, _ y: Double) {
        append(byte: UInt8(ascii: "("))
        append(compact: x)
        append(", ")
        append(compact: y)
        append(byte: UInt8(ascii: ")"))
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
        append(byte: UInt8(ascii: "t"))
        append(Int64(touch.rawValue))
    }

    package mutating func append(_ kind: RoutedEventKind) {
        append(kind.rawValue)
    }
}
