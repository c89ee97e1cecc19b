#if canImport(Glibc)
import Glibc
#endif

/// How a recorded device looks to libinput under umockdev: the sysfs/udev description and
/// the evdev ioctl answers that the kernel would give for it.
///
/// The ioctl payload sizes are those libevdev asks for on 64-bit Linux; umockdev answers a
/// request only when the size matches exactly.
struct EmulatedDevice {
    let device: RecordedDevice
    /// The node's number: `/dev/input/event<number>`.
    let number: Int

    var node: String { "/dev/input/event\(number)" }
    var minor: Int { 64 + number }
    var inputSystemPath: String { "/devices/virtual/input/input\(number)" }
    var eventSystemPath: String { "\(inputSystemPath)/event\(number)" }

    /// Bytes of `unsigned long[NLONGS(count)]`.
    static func bitmaskBytes(_ count: Int) -> Int { (count + 63) / 64 * 8 }
    static let bitmaskSizes: [(type: UInt16, bytes: Int, count: Int)] = [
        (EvdevCodes.EV_KEY, bitmaskBytes(0x300), 0x300), (EvdevCodes.EV_REL, bitmaskBytes(0x10), 0x10),
        (EvdevCodes.EV_ABS, bitmaskBytes(0x40), 0x40), (EvdevCodes.EV_MSC, bitmaskBytes(0x08), 0x08),
        (EvdevCodes.EV_SW, bitmaskBytes(0x11), 0x11), (EvdevCodes.EV_LED, bitmaskBytes(0x10), 0x10),
        (EvdevCodes.EV_SND, bitmaskBytes(0x08), 0x08), (EvdevCodes.EV_FF, bitmaskBytes(0x80), 0x80),
    ]

    var eventTypes: [UInt16] { Array(Set(device.codes.keys).union([EvdevCodes.EV_SYN])).sorted() }

    /// umockdev's text description: the event node, then its parent input device.
    var description: String { description(withNode: true) }

    /// The description; without the `N:` line umockdev creates no node, and the replay
    /// session makes its own PTY for it (umockdev 0.17 cannot make a node again once its
    /// device was removed).
    func description(withNode: Bool) -> String {
        var lines: [String] = []
        lines.append("P: \(eventSystemPath)")
        if withNode { lines.append("N: input/event\(number)") }
        lines.append("E: DEVNAME=\(node)")
        lines.append("E: MAJOR=13")
        lines.append("E: MINOR=\(minor)")
        lines.append("E: SUBSYSTEM=input")
        var keys = Set<Substring>()
        for p in device.udevProperties {
            keys.insert(p.split(separator: "=", maxSplits: 1)[0])
            lines.append("E: \(p)")
        }
        if !keys.contains("ID_INPUT") { lines.append("E: ID_INPUT=1") }
        lines.append("A: dev=13:\(minor)")
        lines.append("L: device=../../input\(number)")
        lines.append("")
        lines.append("P: \(inputSystemPath)")
        lines.append("E: NAME=\"\(device.name)\"")
        let id = device.identity
        lines.append("E: PRODUCT=\(hex(id.bustype))/\(hex(id.vendor))/\(hex(id.product))/\(hex(id.version))")
        lines.append("E: PROP=\(Self.kernelBitmap(device.properties, count: 32))")
        lines.append("E: EV=\(Self.kernelBitmap(eventTypes, count: 32))")
        for (type, key, count) in [(EvdevCodes.EV_KEY, "KEY", 0x300), (EvdevCodes.EV_REL, "REL", 0x10), (EvdevCodes.EV_ABS, "ABS", 0x40),
                                   (EvdevCodes.EV_MSC, "MSC", 0x08), (EvdevCodes.EV_SW, "SW", 0x11), (EvdevCodes.EV_LED, "LED", 0x10)] {
            if let codes = device.codes[type] { lines.append("E: \(key)=\(Self.kernelBitmap(codes, count: count))") }
        }
        lines.append("E: SUBSYSTEM=input")
        for p in device.udevProperties { lines.append("E: \(p)") }
        lines.append("A: name=\(device.name)")
        lines.append("A: phys=")
        lines.append("A: uniq=")
        lines.append("A: properties=\(Self.kernelBitmap(device.properties, count: 32))")
        lines.append("A: id/bustype=\(hex4(id.bustype))")
        lines.append("A: id/vendor=\(hex4(id.vendor))")
        lines.append("A: id/product=\(hex4(id.product))")
        lines.append("A: id/version=\(hex4(id.version))")
        lines.append("")
        return lines.joined(separator: "\n") + "\n"
    }

    /// umockdev's ioctl record file (`@DEV` then one `NAME ARG PAYLOAD` line per answer).
    var ioctlRecord: String {
        var lines = ["@DEV \(node)"]
        lines.append("EVIOCGVERSION 0 \(Self.hex(le32: [0x010001]))")
        var idBytes: [UInt8] = []
        for v in [device.identity.bustype, device.identity.vendor, device.identity.product, device.identity.version] {
            idBytes += [UInt8(v & 0xff), UInt8(v >> 8)]
        }
        lines.append("EVIOCGID 0 \(Self.hex(idBytes))")
        var name = Array(device.name.utf8) + [0]
        let nameLength = name.count
        name += [UInt8](repeating: 0, count: max(0, 255 - name.count))
        lines.append("EVIOCGNAME(0) \(nameLength) \(Self.hex(Array(name.prefix(255))))")
        lines.append("EVIOCGPROP(0) 8 \(Self.hex(Self.bitmask(device.properties, bytes: 8)))")
        lines.append("EVIOCGBIT(0) 8 \(Self.hex(Self.bitmask(eventTypes, bytes: 8)))")
        for (type, bytes, _) in Self.bitmaskSizes {
            lines.append("EVIOCGBIT(\(type)) \(bytes) \(Self.hex(Self.bitmask(device.codes[type] ?? [], bytes: bytes)))")
        }
        let axes = (device.codes[EvdevCodes.EV_ABS] ?? []).sorted()
        for code in axes {
            let a = device.absoluteAxes[code] ?? AbsoluteAxisInfo(minimum: 0, maximum: 0)
            let value: Int32 = code == EvdevCodes.ABS_MT_TRACKING_ID ? -1 : code == EvdevCodes.ABS_MT_SLOT ? 0 : a.minimum
            lines.append("EVIOCGABS(\(code)) 0 \(Self.hex(le32: [value, a.minimum, a.maximum, a.fuzz, a.flat, a.resolution]))")
        }
        if let slots = device.absoluteAxes[EvdevCodes.ABS_MT_SLOT], axes.contains(EvdevCodes.ABS_MT_SLOT) {
            // libevdev asks per MT axis in ascending order; umockdev answers matching lines in
            // file order. libevdev 1.13 asks with 256 slots, newer ones with the real count.
            let count = Int(slots.maximum) + 1
            for code in axes where code > EvdevCodes.ABS_MT_SLOT && code <= 0x3e {
                let v: Int32 = code == EvdevCodes.ABS_MT_TRACKING_ID ? -1 : 0
                for n in [256, count] {
                    lines.append("EVIOCGMTSLOTS(0) 0 \(Self.hex(le32: [Int32(code)] + [Int32](repeating: v, count: n)))")
                }
            }
        }
        let keyBytes = Self.bitmaskBytes(0x300)
        lines.append("EVIOCGKEY(0) \(keyBytes) \(String(repeating: "00", count: keyBytes))")
        lines.append("EVIOCGLED(0) 8 \(String(repeating: "00", count: 8))")
        lines.append("EVIOCGSW(0) 8 \(String(repeating: "00", count: 8))")
        if device.codes[EvdevCodes.EV_REP] != nil {
            lines.append("EVIOCGREP 0 \(Self.hex(le32: [500, 20]))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The same answers as ``ioctlRecord``, for the preload shim, which answers them itself
    /// (see ``PreloadShim``): records of { nr: u8, 3 pad, result: i32, length: u32,
    /// payload }, little-endian. A negative result is an errno.
    var ioctlAnswers: [UInt8] {
        var out: [UInt8] = []
        func record(_ nr: UInt8, _ result: Int32, _ payload: [UInt8]) {
            out += [nr, 0, 0, 0]
            withUnsafeBytes(of: result.littleEndian) { out += $0 }
            withUnsafeBytes(of: UInt32(payload.count).littleEndian) { out += $0 }
            out += payload
        }
        func le32(_ values: [Int32]) -> [UInt8] {
            var bytes: [UInt8] = []
            for v in values { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
            return bytes
        }
        record(0x01, 0, le32([0x010001]))
        var idBytes: [UInt8] = []
        for v in [device.identity.bustype, device.identity.vendor, device.identity.product, device.identity.version] {
            idBytes += [UInt8(v & 0xff), UInt8(v >> 8)]
        }
        record(0x02, 0, idBytes)
        if device.codes[EvdevCodes.EV_REP] != nil { record(0x03, 0, le32([500, 20])) }
        let name = Array(Array(device.name.utf8).prefix(254)) + [0]
        record(0x06, Int32(name.count), name)
        record(0x07, -Int32(ENOENT), [])   // no phys or uniq: the kernel answers ENOENT
        record(0x08, -Int32(ENOENT), [])
        record(0x09, 8, Self.bitmask(device.properties, bytes: 8))
        record(0x20, 8, Self.bitmask(eventTypes, bytes: 8))
        for (type, bytes, _) in Self.bitmaskSizes {
            record(0x20 + UInt8(type), Int32(bytes), Self.bitmask(device.codes[type] ?? [], bytes: bytes))
        }
        let axes = (device.codes[EvdevCodes.EV_ABS] ?? []).sorted()
        var slotValues: [Int32] = []
        for code in axes where code < 0x40 {
            let a = device.absoluteAxes[code] ?? AbsoluteAxisInfo(minimum: 0, maximum: 0)
            let value: Int32 = code == EvdevCodes.ABS_MT_TRACKING_ID ? -1 : code == EvdevCodes.ABS_MT_SLOT ? 0 : a.minimum
            record(0x40 + UInt8(code), 0, le32([value, a.minimum, a.maximum, a.fuzz, a.flat, a.resolution]))
            if code > EvdevCodes.ABS_MT_SLOT && code <= 0x3e { slotValues += [Int32(code), code == EvdevCodes.ABS_MT_TRACKING_ID ? -1 : 0] }
        }
        if device.absoluteAxes[EvdevCodes.ABS_MT_SLOT] != nil, axes.contains(EvdevCodes.ABS_MT_SLOT) {
            record(0x0a, 0, le32(slotValues))
        }
        record(0x18, Int32(Self.bitmaskBytes(0x300)), [UInt8](repeating: 0, count: Self.bitmaskBytes(0x300)))
        record(0x19, 8, [UInt8](repeating: 0, count: 8))
        record(0x1b, 8, [UInt8](repeating: 0, count: 8))
        return out
    }

    /// A DMI description, so that libinput's quirks match the recording machine.
    static func dmiDescription(_ modalias: String) -> String {
        "P: /devices/virtual/dmi/id\nE: MODALIAS=\(modalias)\nE: SUBSYSTEM=dmi\nA: modalias=\(modalias)\n\n"
    }

    static func bitmask(_ bits: [UInt16], bytes: Int) -> [UInt8] {
        var b = [UInt8](repeating: 0, count: bytes)
        for bit in bits where Int(bit) / 8 < bytes { b[Int(bit) / 8] |= 1 << (bit % 8) }
        return b
    }

    /// The kernel's sysfs/uevent form of a bitmap: 64-bit words in hex, highest first.
    static func kernelBitmap(_ bits: [UInt16], count: Int) -> String {
        var words = [UInt64](repeating: 0, count: (count + 63) / 64)
        for bit in bits where Int(bit) < count { words[Int(bit) / 64] |= 1 << UInt64(bit % 64) }
        while words.count > 1 && words.last == 0 { words.removeLast() }
        return words.reversed().map { String($0, radix: 16) }.joined(separator: " ")
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func hex(le32 values: [Int32]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * 4)
        for v in values {
            let u = UInt32(bitPattern: v)
            bytes += [UInt8(u & 0xff), UInt8((u >> 8) & 0xff), UInt8((u >> 16) & 0xff), UInt8(u >> 24)]
        }
        return hex(bytes)
    }

    private func hex(_ v: UInt16) -> String { String(v, radix: 16) }
    private func hex4(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
