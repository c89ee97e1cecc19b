import SeatKit

/// A `libinput record` file: the devices it describes and what they sent.
///
/// Times are microseconds on the recording's own timeline (relative to the recorder's offset,
/// shared by all devices of the file).
public struct Recording: Sendable {
    /// The file the recording came from, or a name given by the caller; used in messages.
    public var source: String
    /// The libinput version that wrote the file (`libinput.version`), if stated.
    public var libinputVersion: String?
    /// `system.os`, `system.kernel`, `system.dmi` (also read from the top level, where
    /// libinput 1.18–1.20 misplaced them).
    public var operatingSystem: String?
    public var kernel: String?
    public var dmi: String?
    /// `ndevices`: how many devices the recorder meant to write.
    public var declaredDeviceCount: Int
    public var devices: [RecordedDevice]
    /// Things that are odd but not fatal (fewer devices than declared: the recorder was
    /// killed before it appended them).
    public var warnings: [String]

    public init(source: String, libinputVersion: String? = nil, operatingSystem: String? = nil,
                kernel: String? = nil, dmi: String? = nil, declaredDeviceCount: Int,
                devices: [RecordedDevice], warnings: [String] = []) {
        self.source = source
        self.libinputVersion = libinputVersion
        self.operatingSystem = operatingSystem
        self.kernel = kernel
        self.dmi = dmi
        self.declaredDeviceCount = declaredDeviceCount
        self.devices = devices
        self.warnings = warnings
    }

    /// The earliest frame time over all devices, in recording microseconds.
    public var startTime: Int64? { devices.compactMap { $0.frames.first?.time }.min() }
    /// The latest frame time over all devices, in recording microseconds.
    public var endTime: Int64? { devices.compactMap { $0.frames.last?.time }.max() }
    /// From the first frame to the last.
    public var duration: TimeSpan {
        guard let start = startTime, let end = endTime else { return TimeSpan(microseconds: 0) }
        return TimeSpan(microseconds: end - start)
    }

    /// ``mergedFrames`` as places, without copying a frame: (device index, frame index in
    /// that device's `frames`), by time, ties in file order. Each device's frames are in time
    /// order already (the parser refuses a file whose time goes back), so this is a merge.
    var mergedOrder: [(device: Int32, frame: Int32)] {
        var order: [(device: Int32, frame: Int32)] = []
        order.reserveCapacity(devices.reduce(0) { $0 + $1.frames.count })
        var next = [Int](repeating: 0, count: devices.count)
        while true {
            var best = -1
            for d in devices.indices where next[d] < devices[d].frames.count {
                if best < 0 || devices[d].frames[next[d]].time < devices[best].frames[next[best]].time { best = d }
            }
            guard best >= 0 else { return order }
            order.append((Int32(best), Int32(next[best])))
            next[best] += 1
        }
    }

    /// Every device's frames merged into one timeline: by time, ties in file order. A device's
    /// own frames keep their order (a parsed recording's are in time order; one built in code
    /// is taken as written).
    public var mergedFrames: [(device: Int, frame: EvdevFrame)] {
        mergedOrder.map { (Int($0.device), devices[Int($0.device)].frames[Int($0.frame)]) }
    }
}

/// The `id:` of a device: bus type, vendor, product and version (EVIOCGID).
public struct InputDeviceIdentity: Hashable, Sendable {
    public var bustype: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    public init(bustype: UInt16, vendor: UInt16, product: UInt16, version: UInt16) {
        self.bustype = bustype
        self.vendor = vendor
        self.product = product
        self.version = version
    }
}

/// An absolute axis's range (`absinfo:`): `[min, max, fuzz, flat, resolution]`, resolution in
/// units per millimetre.
public struct AbsoluteAxisInfo: Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    public var resolution: Int32
    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }
}

/// One evdev event as the kernel delivers it (`struct input_event` without the time).
public struct EvdevEvent: Hashable, Sendable {
    public var type: UInt16
    public var code: UInt16
    public var value: Int32
    public init(type: UInt16, code: UInt16, value: Int32) {
        self.type = type
        self.code = code
        self.value = value
    }
    public var isSynReport: Bool { type == EvdevCodes.EV_SYN && code == EvdevCodes.SYN_REPORT }
}

/// The events of one SYN_REPORT-terminated frame, all stamped with the frame's time.
public struct EvdevFrame: Hashable, Sendable {
    /// Microseconds on the recording's timeline (the first event's `[sec, usec]`).
    public var time: Int64
    /// The events; the last one is always SYN_REPORT.
    public var events: [EvdevEvent]
    /// The line of the frame's first event in the file.
    public var line: Int
    public init(time: Int64, events: [EvdevEvent], line: Int = 0) {
        self.time = time
        self.events = events
        self.line = line
    }
}

/// One event libinput reported while recording (`--with-libinput`): its type name as
/// libinput prints it (`TOUCH_DOWN`), its time and its other fields as text.
public struct RecordedLibinputEvent: Hashable, Sendable {
    /// Microseconds on the recording's timeline; nil for device added/removed.
    public var time: Int64?
    public var type: String
    /// The other fields of the line: scalars as written, lists as their elements.
    public var fields: [String: [String]]
    public var line: Int
    public init(time: Int64?, type: String, fields: [String: [String]], line: Int = 0) {
        self.time = time
        self.type = type
        self.fields = fields
        self.line = line
    }

    /// A numeric field (`slot`, `button`), or the `index`-th number of a list field.
    public func number(_ key: String, _ index: Int = 0) -> Double? {
        guard let values = fields[key], index < values.count else { return nil }
        return Double(values[index])
    }
    public func text(_ key: String) -> String? { fields[key]?.first }
}

/// One device of a recording.
public struct RecordedDevice: Sendable {
    /// The node it was recorded from (`/dev/input/event6`).
    public var node: String
    public var name: String
    public var identity: InputDeviceIdentity
    /// Event codes by event type (EV_KEY → its key codes). EV_SYN's list is kept as written.
    public var codes: [UInt16: [UInt16]]
    public var absoluteAxes: [UInt16: AbsoluteAxisInfo]
    /// INPUT_PROP_* numbers.
    public var properties: [UInt16]
    /// `udev.properties` entries, `KEY=VALUE`.
    public var udevProperties: [String]
    /// `quirks:` entries, `Key=Value`.
    public var quirks: [String]
    /// `libinput.capabilities` of a `--with-libinput` recording.
    public var recordedCapabilities: [String]?
    public var frames: [EvdevFrame]
    /// The events libinput reported while recording, if the file has them.
    public var libinputEvents: [RecordedLibinputEvent]
    /// Line of `- node:`.
    public var line: Int

    public init(node: String, name: String, identity: InputDeviceIdentity, codes: [UInt16: [UInt16]],
                absoluteAxes: [UInt16: AbsoluteAxisInfo] = [:], properties: [UInt16] = [],
                udevProperties: [String] = [], quirks: [String] = [], recordedCapabilities: [String]? = nil,
                frames: [EvdevFrame] = [], libinputEvents: [RecordedLibinputEvent] = [], line: Int = 0) {
        self.node = node
        self.name = name
        self.identity = identity
        self.codes = codes
        self.absoluteAxes = absoluteAxes
        self.properties = properties
        self.udevProperties = udevProperties
        self.quirks = quirks
        self.recordedCapabilities = recordedCapabilities
        self.frames = frames
        self.libinputEvents = libinputEvents
        self.line = line
    }

    public func has(type: UInt16, code: UInt16) -> Bool {
        codes[type]?.contains(code) ?? false
    }

    /// What the device looks like it can do, judged from its codes and udev properties as
    /// libinput would (a guess for `seatkit info`; libinput decides during replay).
    public var apparentCapabilities: DeviceCapabilities {
        var caps: DeviceCapabilities = []
        let keys = codes[EvdevCodes.EV_KEY] ?? []
        let direct = properties.contains(EvdevCodes.INPUT_PROP_DIRECT)
        let hasMT = has(type: EvdevCodes.EV_ABS, code: EvdevCodes.ABS_MT_POSITION_X)
        if keys.contains(where: { $0 >= 1 && $0 < 0x100 }) { caps.insert(.keyboard) }
        if has(type: EvdevCodes.EV_REL, code: 0) || (keys.contains(0x110) && !direct) { caps.insert(.pointer) }
        if (hasMT || has(type: EvdevCodes.EV_ABS, code: 0)) && direct && keys.contains(0x14a) { caps.insert(.touch) }
        if hasMT && !direct && keys.contains(0x145) { caps.formUnion([.pointer, .gesture]) }
        if keys.contains(0x140) && keys.contains(0x14a) && !hasMT { caps.insert(.tabletTool) }
        if codes[EvdevCodes.EV_SW]?.isEmpty == false { caps.insert(.switch) }
        return caps
    }

    /// The udev `ID_INPUT_*` properties udev's `input_id` builtin would give a device with
    /// these codes and properties: what libinput needs to take a device (it refuses one not
    /// tagged as an input device of a kind it handles). For recordings without a `udev:`
    /// section.
    public var derivedUdevProperties: [String] {
        let keys = Set(codes[EvdevCodes.EV_KEY] ?? [])
        let direct = properties.contains(EvdevCodes.INPUT_PROP_DIRECT)
        let hasAbsXY = has(type: EvdevCodes.EV_ABS, code: 0) && has(type: EvdevCodes.EV_ABS, code: 1)
        let hasMTXY = has(type: EvdevCodes.EV_ABS, code: EvdevCodes.ABS_MT_POSITION_X) && has(type: EvdevCodes.EV_ABS, code: EvdevCodes.ABS_MT_POSITION_Y)
        let hasRelXY = has(type: EvdevCodes.EV_REL, code: 0) && has(type: EvdevCodes.EV_REL, code: 1)
        let stylus = keys.contains(0x140) || keys.contains(0x14b) // BTN_TOOL_PEN, BTN_STYLUS
        let finger = keys.contains(0x145)                          // BTN_TOOL_FINGER
        let mouseButton = keys.contains(0x110)                     // BTN_LEFT
        let touch = keys.contains(0x14a)                           // BTN_TOUCH
        var tags: [String] = ["ID_INPUT=1"]
        if hasAbsXY || hasMTXY {
            if stylus {
                tags.append("ID_INPUT_TABLET=1")
            } else if finger && !direct {
                tags.append("ID_INPUT_TOUCHPAD=1")
            } else if direct || touch {
                tags.append("ID_INPUT_TOUCHSCREEN=1")
            } else if mouseButton {
                tags.append("ID_INPUT_MOUSE=1")
            }
        }
        if hasRelXY && mouseButton {
            tags.append(properties.contains(5) ? "ID_INPUT_POINTINGSTICK=1" : "ID_INPUT_MOUSE=1") // INPUT_PROP_POINTING_STICK
        }
        // Keys below BTN_MISC make a key device; KEY_ESC to KEY_D (1-31) all present, a keyboard.
        if keys.contains(where: { $0 >= 1 && $0 < 0x100 }) { tags.append("ID_INPUT_KEY=1") }
        if (1...31).allSatisfy({ keys.contains(UInt16($0)) }) { tags.append("ID_INPUT_KEYBOARD=1") }
        if codes[EvdevCodes.EV_SW]?.isEmpty == false { tags.append("ID_INPUT_SWITCH=1") }
        return tags
    }

    /// The number of evdev events, SYN_REPORTs included.
    public var eventCount: Int { frames.reduce(0) { $0 + $1.events.count } }
}

/// The evdev numbers this module needs (from linux/input-event-codes.h), so that the parser
/// does not import C.
public enum EvdevCodes {
    public static let EV_SYN: UInt16 = 0x00
    public static let EV_KEY: UInt16 = 0x01
    public static let EV_REL: UInt16 = 0x02
    public static let EV_ABS: UInt16 = 0x03
    public static let EV_MSC: UInt16 = 0x04
    public static let EV_SW: UInt16 = 0x05
    public static let EV_LED: UInt16 = 0x11
    public static let EV_SND: UInt16 = 0x12
    public static let EV_REP: UInt16 = 0x14
    public static let EV_FF: UInt16 = 0x15
    public static let EV_PWR: UInt16 = 0x16
    public static let EV_FF_STATUS: UInt16 = 0x17
    public static let SYN_REPORT: UInt16 = 0
    public static let SYN_DROPPED: UInt16 = 3
    public static let ABS_X: UInt16 = 0x00
    public static let ABS_Y: UInt16 = 0x01
    public static let ABS_MT_SLOT: UInt16 = 0x2f
    public static let ABS_MT_POSITION_X: UInt16 = 0x35
    public static let ABS_MT_POSITION_Y: UInt16 = 0x36
    public static let ABS_MT_TRACKING_ID: UInt16 = 0x39
    public static let INPUT_PROP_POINTER: UInt16 = 0
    public static let INPUT_PROP_DIRECT: UInt16 = 1
    public static let INPUT_PROP_BUTTONPAD: UInt16 = 2
    public static let INPUT_PROP_MAX: UInt16 = 0x1f

    /// The highest code of each event type the kernel defines (`KEY_MAX`, `ABS_MAX`, …).
    public static func maximumCode(ofType type: UInt16) -> UInt16? {
        switch type {
        case EV_SYN: return 0x0f
        case EV_KEY: return 0x2ff
        case EV_REL: return 0x0f
        case EV_ABS: return 0x3f
        case EV_MSC: return 0x07
        case EV_SW: return 0x10
        case EV_LED: return 0x0f
        case EV_SND: return 0x07
        case EV_REP: return 0x01
        case EV_FF: return 0x7f
        case EV_PWR: return 0
        case EV_FF_STATUS: return 0x01
        default: return nil
        }
    }
}
