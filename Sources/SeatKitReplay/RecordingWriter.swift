/// Writes a ``Recording`` in the `libinput record` format (as libinput 1.22 writes it), so
/// that tests and examples can build recordings of devices nobody has recorded publicly
/// (touchscreens) and read them back through the same parser.
public enum RecordingWriter {
    public static func text(of recording: Recording) -> String {
        var out = "# libinput record\nversion: 1\nndevices: \(recording.declaredDeviceCount)\n"
        out += "libinput:\n  version: \"\(recording.libinputVersion ?? "1.22.1")\"\n  git: \"unknown\"\n"
        out += "system:\n"
        if let os = recording.operatingSystem { out += "  os: \"\(os)\"\n" }
        out += "  kernel: \"\(recording.kernel ?? "unknown")\"\n  dmi: \"\(recording.dmi ?? "unknown")\"\n"
        out += "devices:\n"
        for device in recording.devices { out += text(of: device) }
        return out
    }

    static func text(of device: RecordedDevice) -> String {
        var out = "- node: \(device.node)\n  evdev:\n    # Name: \(device.name)\n"
        out += "    name: \"\(device.name)\"\n"
        let id = device.identity
        out += "    id: [\(id.bustype), \(id.vendor), \(id.product), \(id.version)]\n    codes:\n"
        var codes = device.codes
        codes[EvdevCodes.EV_SYN] = codes[EvdevCodes.EV_SYN] ?? Array(0...15)
        for type in codes.keys.sorted() {
            out += "      \(type): [\(codes[type]!.map(String.init).joined(separator: ", "))]\n"
        }
        if !device.absoluteAxes.isEmpty {
            out += "    absinfo:\n"
            for code in device.absoluteAxes.keys.sorted() {
                let a = device.absoluteAxes[code]!
                out += "      \(code): [\(a.minimum), \(a.maximum), \(a.fuzz), \(a.flat), \(a.resolution)]\n"
            }
        }
        out += "    properties: [\(device.properties.map(String.init).joined(separator: ", "))]\n"
        if !device.udevProperties.isEmpty {
            out += "  udev:\n    properties:\n"
            for p in device.udevProperties { out += "    - \(p)\n" }
        }
        out += "  quirks:\n"
        for q in device.quirks { out += "  - \(q)\n" }
        out += "  events:\n"
        for frame in device.frames {
            out += "  - evdev:\n"
            let sec = frame.time / 1_000_000
            let usec = frame.time % 1_000_000
            for e in frame.events {
                out += "    - [\(pad(sec, 3)), \(pad(usec, 6)), \(pad(Int64(e.type), 3)), \(pad(Int64(e.code), 3)), \(pad(Int64(e.value), 7))]\n"
            }
        }
        return out
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let s = String(value)
        return s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }
}

/// Builds the frames of a synthetic recording, one SYN_REPORT-terminated frame at a time.
public struct FrameScript {
    public private(set) var frames: [EvdevFrame] = []
    /// Recording microseconds of the next frame.
    public var time: Int64

    public init(startingAt time: Int64 = 0) { self.time = time }

    /// Appends a frame of `events` (SYN_REPORT is added) at the current time, then moves the
    /// time on by `advance` microseconds.
    public mutating func frame(_ events: [EvdevEvent], advance: Int64 = 10_000) {
        frames.append(EvdevFrame(time: time, events: events + [EvdevEvent(type: 0, code: 0, value: 0)]))
        time += advance
    }

    public static func key(_ code: UInt16, _ value: Int32) -> EvdevEvent { EvdevEvent(type: EvdevCodes.EV_KEY, code: code, value: value) }
    public static func rel(_ code: UInt16, _ value: Int32) -> EvdevEvent { EvdevEvent(type: EvdevCodes.EV_REL, code: code, value: value) }
    public static func abs(_ code: UInt16, _ value: Int32) -> EvdevEvent { EvdevEvent(type: EvdevCodes.EV_ABS, code: code, value: value) }
}

/// Device descriptions for synthetic recordings, as the kernel would describe such hardware.
public enum SyntheticDevice {
    /// A 10-finger direct-touch screen with `width`×`height` units at `resolution` units/mm.
    public static func touchscreen(name: String = "SeatKit Test Touchscreen", width: Int32 = 4095, height: Int32 = 4095,
                                   resolution: Int32 = 16, node: String = "/dev/input/event10") -> RecordedDevice {
        RecordedDevice(
            node: node, name: name, identity: InputDeviceIdentity(bustype: 0x18, vendor: 0x1234, product: 0x5678, version: 1),
            codes: [EvdevCodes.EV_KEY: [0x14a], EvdevCodes.EV_ABS: [0, 1, 0x2f, 0x35, 0x36, 0x39]],
            absoluteAxes: [
                0: AbsoluteAxisInfo(minimum: 0, maximum: width, resolution: resolution),
                1: AbsoluteAxisInfo(minimum: 0, maximum: height, resolution: resolution),
                0x2f: AbsoluteAxisInfo(minimum: 0, maximum: 9),
                0x35: AbsoluteAxisInfo(minimum: 0, maximum: width, resolution: resolution),
                0x36: AbsoluteAxisInfo(minimum: 0, maximum: height, resolution: resolution),
                0x39: AbsoluteAxisInfo(minimum: 0, maximum: 65535),
            ],
            properties: [EvdevCodes.INPUT_PROP_DIRECT],
            udevProperties: ["ID_INPUT=1", "ID_INPUT_TOUCHSCREEN=1"])
    }

    /// A three-button wheel mouse.
    public static func mouse(name: String = "SeatKit Test Mouse", node: String = "/dev/input/event11") -> RecordedDevice {
        RecordedDevice(
            node: node, name: name, identity: InputDeviceIdentity(bustype: 3, vendor: 0x1234, product: 0x0001, version: 1),
            codes: [EvdevCodes.EV_KEY: [0x110, 0x111, 0x112], EvdevCodes.EV_REL: [0, 1, 8, 11], EvdevCodes.EV_MSC: [4]],
            udevProperties: ["ID_INPUT=1", "ID_INPUT_MOUSE=1"])
    }

    /// A keyboard with the letter keys, Enter, Shift and Escape, and key repeat.
    public static func keyboard(name: String = "SeatKit Test Keyboard", node: String = "/dev/input/event12") -> RecordedDevice {
        RecordedDevice(
            node: node, name: name, identity: InputDeviceIdentity(bustype: 0x11, vendor: 1, product: 1, version: 0xab41),
            codes: [EvdevCodes.EV_KEY: Array(1...88), EvdevCodes.EV_MSC: [4], EvdevCodes.EV_REP: [0, 1]],
            udevProperties: ["ID_INPUT=1", "ID_INPUT_KEY=1", "ID_INPUT_KEYBOARD=1"])
    }

    /// A clickpad with 5 slots and tool bits up to five fingers, 100×60 mm.
    public static func touchpad(name: String = "SeatKit Test Touchpad", node: String = "/dev/input/event13") -> RecordedDevice {
        RecordedDevice(
            node: node, name: name, identity: InputDeviceIdentity(bustype: 0x18, vendor: 0x6cb, product: 0xce, version: 0x100),
            codes: [EvdevCodes.EV_KEY: [0x110, 0x145, 0x14a, 0x14d, 0x14e, 0x14f, 0x148],
                    EvdevCodes.EV_ABS: [0, 1, 0x2f, 0x35, 0x36, 0x39]],
            absoluteAxes: [
                0: AbsoluteAxisInfo(minimum: 0, maximum: 3000, resolution: 30),
                1: AbsoluteAxisInfo(minimum: 0, maximum: 1800, resolution: 30),
                0x2f: AbsoluteAxisInfo(minimum: 0, maximum: 4),
                0x35: AbsoluteAxisInfo(minimum: 0, maximum: 3000, resolution: 30),
                0x36: AbsoluteAxisInfo(minimum: 0, maximum: 1800, resolution: 30),
                0x39: AbsoluteAxisInfo(minimum: 0, maximum: 65535),
            ],
            properties: [EvdevCodes.INPUT_PROP_POINTER, EvdevCodes.INPUT_PROP_BUTTONPAD],
            udevProperties: ["ID_INPUT=1", "ID_INPUT_TOUCHPAD=1"])
    }
}
