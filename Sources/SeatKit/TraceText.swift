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
///
/// Public only under the SPI `SeatKitInternals`, as ``Unretained`` is: Swift 6.3 does not
/// inline a `package` function into another module, and the replay tool's JSON writer
/// (SeatKitReplay) appends a piece of punctuation at a time, each a call when not inlined.
@_spi(SeatKitInternals) public struct TraceText: ~Copyable {
    /// `count` bytes written at `base`, room for `capacity`.
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    /// How many bytes have been written.
    @inlinable public var count: Int { written }
    @usableFromInline var written = 0
    /// The last few fractional numbers written: their bit patterns, and their shortest text
    /// in `recentText` (`recentSize` bytes each, the length first), so that a number one
    /// event repeats is copied, not formatted again, and no string is kept or retained.
    private var recentBits: (UInt64, UInt64, UInt64, UInt64) = (nanBits, nanBits, nanBits, nanBits)
    private let recentText: UnsafeMutablePointer<UInt8>
    private var nextRecent = 0
    private static let recentSize = 32
    private static let nanBits = Double.nan.bitPattern

    /// An empty text with room for `capacity` bytes before it first grows.
    public init(capacity: Int = 64) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
        recentText = .allocate(capacity: 4 * Self.recentSize)
        recentText.initialize(repeating: 0, count: 4 * Self.recentSize)
    }

    deinit {
        base.deallocate()
        recentText.deallocate()
    }

    /// The bytes as a string.
    public var string: String { string(from: 0) }

    /// The bytes from `start` on, as a string.
    public func string(from start: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: base + start, count: count - start), as: UTF8.self)
    }

    /// The bytes written, valid only during the call.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// The bytes from `start` on, valid only during the call.
    public func withBytes<R>(from start: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base + start, count: count - start))
    }

    /// Forgets the bytes from `newCount` on (all of them by default), keeping the memory.
    public mutating func removeAll(from newCount: Int = 0) {
        precondition(newCount >= 0 && newCount <= count)
        written = newCount
    }

    /// Makes room for `n` more bytes, so that the next `n` can be appended unchecked.
    @inlinable @inline(__always)
    public mutating func reserve(_ n: Int) {
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
    public mutating func append(unchecked byte: UInt8) {
        base[written] = byte
        written &+= 1
    }

    @inlinable @inline(__always)
    public mutating func append(byte: UInt8) {
        reserve(1)
        append(unchecked: byte)
    }

    /// Appends bytes, making room for them.
    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress else { return }
        reserve(bytes.count)
        (base + written).update(from: from, count: bytes.count)
        written &+= bytes.count
    }

    @inlinable @inline(__always)
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    public mutating func append(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            var copy = text
            copy.withUTF8 { append($0) }
        }
    }

    /// `value` in decimal, with no intermediate string.
    public mutating func append(_ value: Int64) {
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
        written = at
        repeat {
            at &-= 1
            base[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
    }

    /// `value` as ``Swift/Double/compactDescription`` writes it: whole numbers below 1e15 as
    /// integers, others in Swift's shortest round-trip form ("0.5", "1e-05", "nan").
    public mutating func append(compact value: Double) {
        if abs(value) < 1e15, Double(Int64(value)) == value {
            append(Int64(value))
            return
        }
        guard value.isFinite else {
            append(value.description)
            return
        }
        // An empty slot holds NaN's bits, which no finite number has.
        let bits = value.bitPattern
        if let slot = recentSlot(bits) {
            let text = recentText + slot * Self.recentSize
            append(UnsafeBufferPointer(start: text + 1, count: Int(text[0])))
            return
        }
        // Swift's shortest form, written by `Double.write(to:)` into the next recent slot
        // (its text is `description`'s for every finite number), then copied from there.
        let slot = nextRecent
        nextRecent = (nextRecent + 1) & 3
        var slotText = RecentSlot(start: recentText + slot * Self.recentSize, capacity: Self.recentSize - 1)
        value.write(to: &slotText)
        guard let length = slotText.length else {
            // Longer than a slot (never, for a finite Double): written as it is, not kept.
            setRecentBits(slot, Self.nanBits)
            append(value.description)
            return
        }
        setRecentBits(slot, bits)
        slotText.start[-1] = UInt8(length)
        append(UnsafeBufferPointer(start: slotText.start, count: length))
    }

    private func recentSlot(_ bits: UInt64) -> Int? {
        if recentBits.0 == bits { return 0 }
        if recentBits.1 == bits { return 1 }
        if recentBits.2 == bits { return 2 }
        if recentBits.3 == bits { return 3 }
        return nil
    }

    private mutating func setRecentBits(_ slot: Int, _ bits: UInt64) {
        switch slot {
        case 0: recentBits.0 = bits
        case 1: recentBits.1 = bits
        case 2: recentBits.2 = bits
        default: recentBits.3 = bits
        }
    }

    /// A time in microseconds as milliseconds, as ``Timestamp/description`` writes it
    /// ("12.5ms"): the exact decimal, which is Swift's shortest form for times of this size.
    public mutating func append(milliseconds microseconds: Int64) {
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
    public mutating func append(pair x: Double, _ y: Double) {
        append(byte: UInt8(ascii: "("))
        append(compact: x)
        append(", ")
        append(compact: y)
        append(byte: UInt8(ascii: ")"))
    }

    /// The subject as ``TraceSubject/description`` names it.
    public mutating func append(_ subject: TraceSubject) {
        switch subject {
        case .surface(_, let name): append(name)
        case .output(let name): append("output:"); append(name)
        case .delegate: append("delegate")
        case .none: append("nothing")
        }
    }

    /// "t2" for touch slot 2.
    public mutating func append(_ touch: TouchID) {
        append(byte: UInt8(ascii: "t"))
        append(Int64(touch.rawValue))
    }

    public mutating func append(_ kind: RoutedEventKind) {
        append(kind.rawValue)
    }
}

/// Where `Double.write(to:)` puts a number's text: the bytes after a slot's length byte.
/// `length` is nil once the text did not fit.
private struct RecentSlot: TextOutputStream {
    let start: UnsafeMutablePointer<UInt8>
    let capacity: Int
    var length: Int? = 0

    init(start slot: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.start = slot + 1
        self.capacity = capacity
    }

    mutating func write(_ string: String) {
        for byte in string.utf8 { put(byte) }
    }

    /// What the standard library's number types call with their ASCII text (no string made).
    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        for byte in buffer { put(byte) }
    }

    private mutating func put(_ byte: UInt8) {
        guard let n = length, n < capacity else { length = nil; return }
        start[n] = byte
        length = n + 1
    }
}
