import SeatKit
import SeatKitSystem
#if canImport(Glibc)
import Glibc
#endif

/// Something wrong with a recording: the file, the line and what is wrong.
public struct RecordingError: Error, CustomStringConvertible, Sendable {
    public var file: String
    /// 1-based; 0 when the problem is the file as a whole.
    public var line: Int
    public var message: String
    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }
    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

/// Reads `libinput record` files of every version from 1.11 on.
///
/// Purpose-built rather than Yams: on the shared recordings it is several times faster and
/// keeps the line of every value for error messages (numbers in the report). It
/// ignores keys it does not know (the format's contract), splits `evdev:` lists on
/// SYN_REPORT (1.11–1.17 grouped frames by timestamp), accepts `system:` sub-keys at the top
/// level (1.18–1.20) and refuses values the kernel could never have produced.
public enum RecordingParser {
    /// Upper bounds that keep a hostile file from costing unbounded memory downstream. 50
    /// devices: umockdev 0.17's preload tracks at most 50 emulated open files per process
    /// (`fd_map_add(): overflow` aborts the replay's worker at 51).
    public static let maximumDevices = 50
    public static let maximumSlots = 64

    /// The largest recording or layout file read: 1 GiB (an hour of a 1 kHz mouse is about
    /// 200 MB). A larger file is refused with a ``RecordingError`` before it is read.
    public static let maximumFileSize = InputFile.defaultLimit

    /// Parses a file. Throws ``RecordingError`` naming the file and line; a path that is not a
    /// readable file of at most ``maximumFileSize`` bytes (a directory, a device such as
    /// `/dev/zero`, a FIFO with no writer, a file that changes while it is read) is a
    /// ``RecordingError`` at line 0 that says which. Pipes are read to their end.
    /// `progress` is called with (bytes parsed, bytes in all) about every megabyte.
    public static func parse(contentsOf path: String, progress: ((Int, Int) -> Void)? = nil) throws(RecordingError) -> Recording {
        var bytes = try contents(of: path)
        let root = try tree(of: bytes, source: path, progress: progress)
        // The text is not needed once it is a tree: let it go before the frames are made.
        bytes = []
        var reader = Reader(source: path)
        return try reader.recording(root)
    }

    /// The bytes of a file someone named, or a ``RecordingError`` at line 0 saying why not.
    static func contents(of path: String) throws(RecordingError) -> [UInt8] {
        switch InputFile.read(path, limit: maximumFileSize) {
        case .success(let bytes): return bytes
        case .failure(let error): throw RecordingError(file: path, line: 0, message: error.reason)
        }
    }

    /// Parses a file named relative to the directory of `file`: in a test,
    /// `parse(contentsOf: "Fixtures/tap.yml", relativeTo: #filePath)` finds the fixture beside
    /// the test's source, whatever the working directory. Absolute paths are taken as they are.
    public static func parse(contentsOf path: String, relativeTo file: String) throws(RecordingError) -> Recording {
        try parse(contentsOf: resolve(path, relativeTo: file))
    }

    /// `path` in the directory of `file`, unless `path` is absolute.
    public static func resolve(_ path: String, relativeTo file: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        let directory = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return directory.isEmpty ? path : directory + "/" + path
    }

    /// Parses the text of a recording; `source` names it in errors.
    public static func parse(_ text: String, source: String) throws(RecordingError) -> Recording {
        try parse(bytes: Array(text.utf8), source: source)
    }

    /// Parses a recording's bytes (UTF-8; LF or CRLF; a byte order mark is skipped);
    /// `source` names it in errors.
    public static func parse(bytes: [UInt8], source: String, progress: ((Int, Int) -> Void)? = nil) throws(RecordingError) -> Recording {
        let root = try tree(of: bytes, source: source, progress: progress)
        var reader = Reader(source: source)
        return try reader.recording(root)
    }

    private static func tree(of bytes: [UInt8], source: String, progress: ((Int, Int) -> Void)?) throws(RecordingError) -> RecordNode {
        do {
            return try RecordDocumentParser.parse(bytes: bytes, limits: RecordDocumentLimits(maximumDevices: maximumDevices, progress: progress))
        } catch {
            throw RecordingError(file: source, line: error.line, message: error.message)
        }
    }

    static func readFile(_ path: String) -> String? {
        readBytes(path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of a file, or nil where ``contents(of:)`` would say why not.
    static func readBytes(_ path: String) -> [UInt8]? {
        try? InputFile.read(path, limit: maximumFileSize).get()
    }
}

private struct Reader {
    let source: String

    func fail(_ line: Int, _ message: String) -> RecordingError {
        RecordingError(file: source, line: line, message: message)
    }

    mutating func recording(_ root: RecordNode) throws(RecordingError) -> Recording {
        guard case .mapping = root.value else {
            throw fail(root.line, "the top level must be a mapping with `version`, `ndevices` and `devices`")
        }
        guard let versionNode = root["version"] else { throw fail(root.line, "no `version` key: not a libinput recording") }
        let version = try integer(versionNode, "version")
        guard version == 1 else { throw fail(versionNode.line, "unsupported format version \(version) (only 1 exists)") }
        guard let countNode = root["ndevices"] else { throw fail(root.line, "no `ndevices` key") }
        let declared = try integer(countNode, "ndevices")
        guard declared >= 1 && declared <= Int64(RecordingParser.maximumDevices) else {
            throw fail(countNode.line, "ndevices is \(declared); expected 1 to \(RecordingParser.maximumDevices)")
        }
        let libinput = root["libinput"]
        // 1.18–1.20 printed system's keys at column 0, so they appear at the top level.
        let system = root["system"].flatMap { if case .mapping = $0.value { $0 } else { nil } } ?? root
        guard let devicesNode = root["devices"] else { throw fail(root.line, "no `devices` key") }
        guard case .sequence(let deviceNodes) = devicesNode.value else {
            throw fail(devicesNode.line, "`devices` must be a list of devices")
        }
        guard !deviceNodes.isEmpty else { throw fail(devicesNode.line, "`devices` is empty") }
        guard deviceNodes.count <= RecordingParser.maximumDevices else {
            throw fail(devicesNode.line, "more than \(RecordingParser.maximumDevices) devices")
        }
        var devices: [RecordedDevice] = []
        for (i, node) in deviceNodes.enumerated() { devices.append(try device(node, isLast: i == deviceNodes.count - 1)) }
        var warnings: [String] = []
        if devices.count != Int(declared) {
            warnings.append("\(source): ndevices is \(declared) but the file has \(devices.count) (truncated recording?)")
        }
        // Descriptive fields only: one that is not text is left out with a warning, not fatal.
        func optionalText(_ node: RecordNode?, _ what: String) -> String? {
            guard let node else { return nil }
            do { return try string(node, what) } catch {
                warnings.append("\(error) (ignored)")
                return nil
            }
        }
        return Recording(
            source: source,
            libinputVersion: optionalText(libinput?["version"], "libinput.version"),
            operatingSystem: optionalText(system["os"], "os"),
            kernel: optionalText(system["kernel"], "kernel"),
            dmi: optionalText(system["dmi"], "dmi"),
            declaredDeviceCount: Int(declared),
            devices: devices,
            warnings: warnings)
    }

    func device(_ node: RecordNode, isLast: Bool) throws(RecordingError) -> RecordedDevice {
        guard case .mapping = node.value else { throw fail(node.line, "a device must be a mapping starting with `node:`") }
        let path = try node["node"].map { n throws(RecordingError) in try string(n, "node") } ?? ""
        guard let evdev = node["evdev"] else { throw fail(node.line, "device \(path) has no `evdev` description") }
        guard case .mapping = evdev.value else { throw fail(evdev.line, "`evdev` must be a mapping") }
        guard let nameNode = evdev["name"] else { throw fail(evdev.line, "device \(path) has no `name`") }
        let name = try string(nameNode, "name")
        guard name.utf8.count < 255 else {
            throw fail(nameNode.line, "device name longer than 254 bytes")
        }
        // A newline in a name would inject a line into the testbed's udev description.
        if let c = name.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw fail(nameNode.line, "device name contains the control character U+\(String(c.value, radix: 16, uppercase: true))")
        }
        guard let idNode = evdev["id"] else { throw fail(evdev.line, "device \(path) has no `id`") }
        let ids = try integers(idNode, "id")
        guard ids.count == 4 else { throw fail(idNode.line, "`id` must be [bustype, vendor, product, version], found \(ids.count) numbers") }
        for v in ids where v < 0 || v > 0xffff {
            throw fail(idNode.line, "`id` value \(v) is outside 0...65535")
        }
        let identity = InputDeviceIdentity(bustype: UInt16(ids[0]), vendor: UInt16(ids[1]), product: UInt16(ids[2]), version: UInt16(ids[3]))

        guard let codesNode = evdev["codes"] else { throw fail(evdev.line, "device \(path) has no `codes`") }
        guard case .mapping(let codeEntries) = codesNode.value else { throw fail(codesNode.line, "`codes` must map event types to lists of codes") }
        var codes: [UInt16: [UInt16]] = [:]
        for entry in codeEntries {
            guard let type = UInt16(entry.key), let maxCode = EvdevCodes.maximumCode(ofType: type) else {
                throw fail(entry.value.line, "`codes` has unknown event type \(entry.key)")
            }
            var list: [UInt16] = []
            if case .null = entry.value.value {} else {
                for c in try integers(entry.value, "codes[\(type)]") {
                    guard c >= 0 && c <= Int64(maxCode) else {
                        throw fail(entry.value.line, "event code \(c) is outside 0...\(maxCode) for event type \(type)")
                    }
                    list.append(UInt16(c))
                }
            }
            codes[type] = list
        }

        var axes: [UInt16: AbsoluteAxisInfo] = [:]
        if let absNode = evdev["absinfo"] {
            if case .null = absNode.value {} else {
                guard case .mapping(let entries) = absNode.value else { throw fail(absNode.line, "`absinfo` must map axis codes to [min, max, fuzz, flat, resolution]") }
                for entry in entries {
                    guard let code = UInt16(entry.key), code <= 0x3f else { throw fail(entry.value.line, "`absinfo` has unknown axis \(entry.key)") }
                    let v = try integers(entry.value, "absinfo[\(code)]")
                    guard v.count == 5 else { throw fail(entry.value.line, "absinfo of axis \(code) must have 5 numbers, found \(v.count)") }
                    for x in v where x < Int64(Int32.min) || x > Int64(Int32.max) {
                        throw fail(entry.value.line, "absinfo value \(x) of axis \(code) does not fit in 32 bits")
                    }
                    guard v[0] <= v[1] else { throw fail(entry.value.line, "axis \(code) has minimum \(v[0]) above maximum \(v[1])") }
                    axes[code] = AbsoluteAxisInfo(minimum: Int32(v[0]), maximum: Int32(v[1]), fuzz: Int32(v[2]), flat: Int32(v[3]), resolution: Int32(v[4]))
                }
            }
        }
        for code in codes[EvdevCodes.EV_ABS] ?? [] where axes[code] == nil {
            throw fail(codesNode.line, "absolute axis \(code) is listed in `codes` but has no `absinfo`")
        }
        if let slots = axes[EvdevCodes.ABS_MT_SLOT] {
            guard slots.minimum == 0, slots.maximum >= 0, slots.maximum < Int32(RecordingParser.maximumSlots) else {
                throw fail(evdev["absinfo"]?.line ?? evdev.line, "ABS_MT_SLOT range \(slots.minimum)...\(slots.maximum) is not 0...n with fewer than \(RecordingParser.maximumSlots) slots")
            }
        }
        var properties: [UInt16] = []
        if let propNode = evdev["properties"], !propNode.isNull {
            for p in try integers(propNode, "properties") {
                guard p >= 0 && p <= Int64(EvdevCodes.INPUT_PROP_MAX) else { throw fail(propNode.line, "input property \(p) is outside 0...31") }
                properties.append(UInt16(p))
            }
        }
        var udevProperties: [String] = []
        var derivesUdevProperties = false
        if node["udev"] == nil {
            // libinput 1.11-1.13 wrote no `udev:` section: udev's tags are derived from the
            // codes once the device is read (below).
            derivesUdevProperties = true
        } else if let udev = node["udev"], let props = udev["properties"], !props.isNull {
            udevProperties = try strings(props, "udev.properties")
            for (i, p) in udevProperties.enumerated() where !p.contains("=") || p.contains("\n") {
                throw fail(props.line + i, "udev property `\(p)` is not KEY=VALUE")
            }
        }
        var quirks: [String] = []
        if let q = node["quirks"], !q.isNull { quirks = try strings(q, "quirks") }
        var recordedCapabilities: [String]?
        if let li = node["libinput"], let caps = li["capabilities"], !caps.isNull {
            recordedCapabilities = try strings(caps, "libinput.capabilities")
        }

        var device = RecordedDevice(node: path, name: name, identity: identity, codes: codes, absoluteAxes: axes,
                                    properties: properties, udevProperties: udevProperties, quirks: quirks,
                                    recordedCapabilities: recordedCapabilities, line: node.line)
        if derivesUdevProperties { device.udevProperties = device.derivedUdevProperties }
        if node["events"] == nil && isLast {
            throw fail(node.line, "the file ends before the events of device \(path) (is the file truncated?)")
        }
        if let events = node["events"], !events.isNull {
            guard case .sequence(let items) = events.value else { throw fail(events.line, "`events` must be a list") }
            try readEvents(items, into: &device)
        }
        return device
    }

    func readEvents(_ items: [RecordNode], into device: inout RecordedDevice) throws(RecordingError) {
        var frames = FrameAssembler()
        for item in items {
            if case .packedEvents(let packed) = item.value {
                // Pure `- evdev:` items, packed by the parser: the same checks, line by line.
                var start = 0
                for end in packed.itemEnds {
                    for l in packed.lines[start..<end] {
                        try frames.add(Int64(l.seconds), Int64(l.microseconds), Int64(l.type), Int64(l.code), Int64(l.value),
                                       line: Int(l.line), device: &device, reader: self)
                    }
                    try frames.endItem(reader: self)
                    start = end
                }
                continue
            }
            guard case .mapping = item.value else { throw fail(item.line, "an events item must be a mapping (`evdev:`, `libinput:` or `hid:`)") }
            if let evdev = item["evdev"] {
                guard case .sequence(let lines) = evdev.value else { throw fail(evdev.line, "`evdev` must be a list of [sec, usec, type, code, value]") }
                for line in lines {
                    let v = try integers(line, "evdev event")
                    guard v.count == 5 else { throw fail(line.line, "an evdev event must be [sec, usec, type, code, value], found \(v.count) numbers") }
                    try frames.add(v[0], v[1], v[2], v[3], v[4], line: line.line, device: &device, reader: self)
                }
                try frames.endItem(reader: self)
            }
            if let libinput = item["libinput"], !libinput.isNull {
                guard case .sequence(let events) = libinput.value else { throw fail(libinput.line, "`libinput` events must be a list") }
                for e in events { device.libinputEvents.append(try libinputEvent(e)) }
            }
        }
    }

    /// Evdev event lines checked one by one and cut into frames at SYN_REPORT.
    struct FrameAssembler {
        var pending: [EvdevEvent] = []
        var pendingTime: Int64 = 0
        var pendingLine = 0
        var lastTime: Int64 = .min

        mutating func add(_ seconds: Int64, _ microseconds: Int64, _ rawType: Int64, _ rawCode: Int64, _ rawValue: Int64, line: Int,
                          device: inout RecordedDevice, reader: Reader) throws(RecordingError) {
            guard seconds >= 0 && seconds < 1 << 32 else { throw reader.fail(line, "seconds value \(seconds) is absurd") }
            guard microseconds >= 0 && microseconds < 1_000_000 else { throw reader.fail(line, "microseconds value \(microseconds) is outside 0...999999") }
            guard rawType >= 0 && rawType <= 0xffff, let maxCode = EvdevCodes.maximumCode(ofType: UInt16(rawType)) else {
                throw reader.fail(line, "unknown event type \(rawType)")
            }
            let type = UInt16(rawType)
            guard rawCode >= 0 && rawCode <= Int64(maxCode) else { throw reader.fail(line, "event code \(rawCode) is outside 0...\(maxCode) for event type \(type)") }
            let code = UInt16(rawCode)
            guard rawValue >= Int64(Int32.min) && rawValue <= Int64(Int32.max) else { throw reader.fail(line, "event value \(rawValue) does not fit in 32 bits") }
            let value = Int32(rawValue)
            if type != EvdevCodes.EV_SYN && !device.has(type: type, code: code) {
                throw reader.fail(line, "event type \(type) code \(code) is not among the device's `codes`")
            }
            if type == EvdevCodes.EV_SYN && code == EvdevCodes.SYN_DROPPED {
                throw reader.fail(line, "SYN_DROPPED in a recording (the recorder never writes it)")
            }
            if type == EvdevCodes.EV_KEY && !(0...2).contains(value) {
                throw reader.fail(line, "key value \(value) is not 0, 1 or 2")
            }
            if type == EvdevCodes.EV_ABS, let axis = device.absoluteAxes[code], code == EvdevCodes.ABS_MT_SLOT,
               value < axis.minimum || value > axis.maximum {
                throw reader.fail(line, "slot \(value) is outside the device's 0...\(axis.maximum)")
            }
            let time = seconds * 1_000_000 + microseconds
            if pending.isEmpty {
                pendingTime = time
                pendingLine = line
                if time < lastTime {
                    throw reader.fail(line, "time goes backwards (\(time) µs after \(lastTime) µs)")
                }
            }
            pending.append(EvdevEvent(type: type, code: code, value: value))
            if type == EvdevCodes.EV_SYN && code == EvdevCodes.SYN_REPORT {
                device.frames.append(EvdevFrame(time: pendingTime, events: pending, line: pendingLine))
                lastTime = pendingTime
                pending.removeAll(keepingCapacity: true)
            }
        }

        /// An `evdev:` item ended: its last frame must have ended with it.
        func endItem(reader: Reader) throws(RecordingError) {
            if !pending.isEmpty {
                throw reader.fail(pendingLine, "a frame does not end with SYN_REPORT (is the file truncated?)")
            }
        }
    }

    func libinputEvent(_ node: RecordNode) throws(RecordingError) -> RecordedLibinputEvent {
        guard case .mapping(let entries) = node.value else { throw fail(node.line, "a libinput event must be a `{type: ..., ...}` mapping") }
        guard let typeNode = node["type"] else { throw fail(node.line, "a libinput event has no `type`") }
        let type = try string(typeNode, "type")
        var time: Int64?
        if let t = node["time"] {
            let text = try string(t, "time")
            guard let micros = Self.microseconds(fromSeconds: text) else { throw fail(t.line, "time `\(text)` is not seconds.microseconds") }
            time = micros
        }
        var fields: [String: [String]] = [:]
        for entry in entries where entry.key != "type" && entry.key != "time" {
            switch entry.value.value {
            case .null: fields[entry.key] = []
            case .scalar(let s, _): fields[entry.key] = [s]
            case .sequence(let items):
                fields[entry.key] = items.map { if case .scalar(let s, _) = $0.value { s } else { "" } }
            case .integers(let numbers):
                fields[entry.key] = numbers.map { String($0) }
            case .mapping, .packedEvents: throw fail(entry.value.line, "libinput event field `\(entry.key)` is a mapping")
            }
        }
        return RecordedLibinputEvent(time: time, type: type, fields: fields, line: node.line)
    }

    /// "12.000345" → 12000345, exactly (the recorder prints `%d.%06ld`).
    static func microseconds(fromSeconds text: String) -> Int64? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = Int64(parts[0]), whole >= 0, whole < 1 << 32 else { return nil }
        var micros: Int64 = 0
        if parts.count == 2 {
            let frac = parts[1]
            guard !frac.isEmpty, frac.count <= 6, frac.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            micros = Int64(frac + String(repeating: "0", count: 6 - frac.count))!
        }
        return whole * 1_000_000 + micros
    }

    // MARK: Typed access

    func string(_ node: RecordNode, _ what: String) throws(RecordingError) -> String {
        if case .scalar(let s, _) = node.value { return s }
        throw fail(node.line, "`\(what)` must be a text value")
    }

    func integer(_ node: RecordNode, _ what: String) throws(RecordingError) -> Int64 {
        guard case .scalar(let s, let quoted) = node.value, !quoted, let v = Self.parseInteger(s) else {
            throw fail(node.line, "`\(what)` must be an integer, found \(node.summary)")
        }
        return v
    }

    func integers(_ node: RecordNode, _ what: String) throws(RecordingError) -> IntegerList {
        if case .integers(let numbers) = node.value { return numbers }
        guard case .sequence(let items) = node.value else { throw fail(node.line, "`\(what)` must be a list of integers, found \(node.summary)") }
        var result: [Int64] = []
        result.reserveCapacity(items.count)
        for item in items { result.append(try integer(item, what)) }
        return IntegerList(result)
    }

    func strings(_ node: RecordNode, _ what: String) throws(RecordingError) -> [String] {
        if case .integers(let numbers) = node.value { return numbers.map { String($0) } }
        guard case .sequence(let items) = node.value else { throw fail(node.line, "`\(what)` must be a list, found \(node.summary)") }
        var result: [String] = []
        for item in items { result.append(try string(item, what)) }
        return result
    }

    /// Decimal, or `0x` hexadecimal (the `hid:` descriptor), with an optional sign.
    static func parseInteger(_ s: String) -> Int64? {
        var text = Substring(s)
        var negative = false
        if text.first == "-" || text.first == "+" {
            negative = text.first == "-"
            text = text.dropFirst()
        }
        let value: Int64?
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            value = Int64(text.dropFirst(2), radix: 16)
        } else {
            value = Int64(text, radix: 10)
        }
        guard let v = value else { return nil }
        return negative ? -v : v
    }
}

extension RecordNode {
    var isNull: Bool { if case .null = value { true } else { false } }

    /// A short description for error messages.
    var summary: String {
        switch value {
        case .null: return "nothing"
        case .scalar(let s, _): return "`\(s.prefix(40))`"
        case .sequence, .integers, .packedEvents: return "a list"
        case .mapping: return "a mapping"
        }
    }
}
