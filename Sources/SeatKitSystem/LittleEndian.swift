/// Appends fixed-size little-endian values to a byte buffer: the binary form the replay
/// worker and its parent exchange (``DeviceEvent`` encoding, read marks, commands).
package struct ByteWriter {
    package var bytes: [UInt8]
    package init(bytes: [UInt8] = []) { self.bytes = bytes }
    package mutating func u8(_ v: UInt8) { bytes.append(v) }
    package mutating func u32(_ v: UInt32) { bytes.appendLittleEndian(v) }
    package mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    package mutating func u64(_ v: UInt64) { bytes.appendLittleEndian(v) }
    package mutating func i64(_ v: Int64) { u64(UInt64(bitPattern: v)) }
    package mutating func f64(_ v: Double) { u64(v.bitPattern) }
    /// A UInt32 length, then at most 4096 bytes of UTF-8.
    package mutating func string(_ s: String) {
        let utf8 = Array(s.utf8.prefix(4096))
        u32(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }
}

/// Reads what ``ByteWriter`` wrote, from `position` on. Every read returns nil, and leaves
/// `position` where it was, when fewer bytes remain than the value needs (wait for more).
package struct ByteReader {
    package let bytes: [UInt8]
    package var position: Int
    package init(bytes: [UInt8], position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }
    package mutating func u8() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }
    package mutating func u32() -> UInt32? {
        guard position >= 0, position + 4 <= bytes.count else { return nil }
        defer { position += 4 }
        return ByteReader.u32(bytes, at: position)
    }
    package mutating func i32() -> Int32? { u32().map { Int32(bitPattern: $0) } }
    package mutating func u64() -> UInt64? {
        guard position >= 0, position + 8 <= bytes.count else { return nil }
        defer { position += 8 }
        return ByteReader.u64(bytes, at: position)
    }
    package mutating func i64() -> Int64? { u64().map { Int64(bitPattern: $0) } }
    package mutating func f64() -> Double? { u64().map { Double(bitPattern: $0) } }
    package mutating func string() -> String? {
        let start = position
        guard let count = u32(), count <= 4096, position + Int(count) <= bytes.count else {
            position = start
            return nil
        }
        defer { position += Int(count) }
        return String(decoding: bytes[position..<position + Int(count)], as: UTF8.self)
    }

    /// The little-endian UInt64 at `index` of `bytes` (which must hold eight bytes there).
    @inline(__always)
    package static func u64(_ bytes: [UInt8], at index: Int) -> UInt64 {
        UInt64(u32(bytes, at: index)) | UInt64(u32(bytes, at: index + 4)) << 32
    }

    /// The little-endian UInt32 at `index` of `bytes` (which must hold four bytes there).
    @inline(__always)
    package static func u32<C: RandomAccessCollection>(_ bytes: C, at index: C.Index) -> UInt32 where C.Element == UInt8 {
        var v: UInt32 = 0
        var i = index
        for shift in stride(from: 0, to: 32, by: 8) {
            v |= UInt32(bytes[i]) << UInt32(shift)
            i = bytes.index(after: i)
        }
        return v
    }
}

extension Array where Element == UInt8 {
    /// Appends `value`'s bytes, least significant first.
    @inline(__always)
    package mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
