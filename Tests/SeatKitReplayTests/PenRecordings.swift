import SeatKitReplay

/// Pen tablet recordings, written with the project's recording writer (no public one
/// exists): a Wacom-style pen with pressure, distance, tilt, two buttons and a serial.
enum PenRecordings {
    typealias E = FrameScript

    static func pen(frames: [EvdevFrame]) -> RecordedDevice {
        RecordedDevice(node: "/dev/input/event9", name: "SeatKit Test Pen Tablet",
                       identity: InputDeviceIdentity(bustype: 3, vendor: 0x1234, product: 0x99, version: 1),
                       codes: [1: [0x140, 0x141, 0x14a, 0x14b, 0x14c], 3: [0, 1, 0x18, 0x19, 0x1a, 0x1b], 4: [0]],
                       absoluteAxes: [0: AbsoluteAxisInfo(minimum: 0, maximum: 20000, resolution: 100),
                                      1: AbsoluteAxisInfo(minimum: 0, maximum: 12000, resolution: 100),
                                      0x18: AbsoluteAxisInfo(minimum: 0, maximum: 2047),
                                      0x19: AbsoluteAxisInfo(minimum: 0, maximum: 63),
                                      0x1a: AbsoluteAxisInfo(minimum: -64, maximum: 63, resolution: 57),
                                      0x1b: AbsoluteAxisInfo(minimum: -64, maximum: 63, resolution: 57)],
                       properties: [EvdevCodes.INPUT_PROP_POINTER],
                       udevProperties: ["ID_INPUT=1", "ID_INPUT_TABLET=1"], frames: frames)
    }

    static func serial(_ s: Int32) -> EvdevEvent { EvdevEvent(type: 4, code: 0, value: s) }

    /// The pen comes in, draws five steps right with rising pressure and tilt, clicks its
    /// first button, lifts and leaves; then the eraser end comes in and leaves.
    static func penAndEraser() throws -> Recording {
        var s = FrameScript()
        s.frame([E.key(0x140, 1), E.abs(0, 5000), E.abs(1, 4000), E.abs(0x19, 20), E.abs(0x1a, 5), E.abs(0x1b, -3), serial(0x5a5a)])
        s.frame([E.key(0x14a, 1), E.abs(0x18, 600), E.abs(0x19, 0), serial(0x5a5a)])
        for i in 1...5 { s.frame([E.abs(0, 5000 + Int32(i) * 100), E.abs(0x18, 600 + Int32(i) * 200), E.abs(0x1a, 5 + Int32(i) * 3), serial(0x5a5a)]) }
        s.frame([E.key(0x14b, 1), serial(0x5a5a)])
        s.frame([E.key(0x14b, 0), serial(0x5a5a)])
        s.frame([E.key(0x14a, 0), E.abs(0x18, 0), serial(0x5a5a)])
        s.frame([E.key(0x140, 0), E.abs(0x19, 63), serial(0x5a5a)], advance: 200_000)
        s.frame([E.key(0x141, 1), E.abs(0, 6000), E.abs(0x19, 20), serial(0x5a5a)])
        s.frame([E.key(0x141, 0), E.abs(0x19, 63), serial(0x5a5a)])
        return try SyntheticRecordings.recording([pen(frames: s.frames)], name: "pen.yml")
    }
}
