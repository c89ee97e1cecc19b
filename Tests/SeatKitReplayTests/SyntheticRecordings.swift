import Testing
@testable import SeatKitReplay
#if canImport(Glibc)
import Glibc
#endif

/// Recordings the tests write themselves, in the `libinput record` format, for devices no
/// public recording covers. Each goes through the writer and back through the parser, so
/// the replay reads exactly what a file would hold.
enum SyntheticRecordings {
    typealias E = FrameScript

    static func recording(_ devices: [RecordedDevice], name: String) throws -> Recording {
        let text = RecordingWriter.text(of: Recording(source: name, declaredDeviceCount: devices.count, devices: devices))
        return try RecordingParser.parse(text, source: name)
    }

    /// The text of each recording the tests write for any-recording checks (a keyboard with
    /// repeats, a mouse with buttons and wheel, a touchpad swipe, a two-finger touchscreen),
    /// then, where they are here, the third-party recordings' bytes.
    static func texts(andThirdParty thirdParty: [String] = []) throws -> [(name: String, bytes: [UInt8])] {
        let written = try [keyboard(), mouse(), touchpadThreeFingerSwipe(), touchscreenTwoFingers()]
            .map { ($0.source, Array(RecordingWriter.text(of: $0).utf8)) }
        return written + zip(thirdParty, try SharedRecordings.bytesWhereAvailable(thirdParty)).map { ($0, $1) }
    }

    /// `recording` written to a new file of its own in /tmp; the caller unlinks it.
    static func file(_ recording: Recording) throws -> String {
        var template = Array("/tmp/seatkit-test-recording-XXXXXX.yml".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        try #require(fd >= 0)
        close(fd)
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        try #require(writeFile(path, Array(RecordingWriter.text(of: recording).utf8)))
        return path
    }

    static func touch(slot: Int32, trackingID: Int32, x: Int32? = nil, y: Int32? = nil) -> [EvdevEvent] {
        var events = [E.abs(0x2f, slot), E.abs(0x39, trackingID)]
        if let x { events.append(E.abs(0x35, x)) }
        if let y { events.append(E.abs(0x36, y)) }
        return events
    }

    /// Two fingers: the first lifts while the second stays, and its slot is reused by a third.
    static func touchscreenTwoFingers() throws -> Recording {
        var s = FrameScript()
        s.frame(touch(slot: 0, trackingID: 1, x: 1000, y: 1000) + [E.key(0x14a, 1), E.abs(0, 1000), E.abs(1, 1000)])
        s.frame(touch(slot: 1, trackingID: 2, x: 3000, y: 3000))
        s.frame([E.abs(0x2f, 0), E.abs(0x35, 1100), E.abs(0, 1100)])
        s.frame([E.abs(0x2f, 0), E.abs(0x39, -1)])
        s.frame([E.abs(0x2f, 1), E.abs(0x36, 2900)])
        s.frame(touch(slot: 0, trackingID: 3, x: 2000, y: 2000))
        s.frame([E.abs(0x2f, 1), E.abs(0x39, -1)])
        s.frame([E.abs(0x2f, 0), E.abs(0x39, -1), E.key(0x14a, 0)])
        var device = SyntheticDevice.touchscreen()
        device.frames = s.frames
        return try recording([device], name: "touchscreen-two-fingers.yml")
    }

    /// One tap at raw device coordinates.
    static func touchscreenTap(x: Int32, y: Int32, holdFrames: Int = 2) throws -> Recording {
        var s = FrameScript(startingAt: 100_000)
        s.frame(touch(slot: 0, trackingID: 7, x: x, y: y) + [E.key(0x14a, 1), E.abs(0, x), E.abs(1, y)])
        for _ in 0..<holdFrames { s.frame([E.abs(0x35, x + 1), E.abs(0, x + 1)]) }
        s.frame([E.abs(0x39, -1), E.key(0x14a, 0)])
        var device = SyntheticDevice.touchscreen()
        device.frames = s.frames
        return try recording([device], name: "touchscreen-tap.yml")
    }

    /// The Framework laptop's touchpad with a right button pressed and released, on the
    /// machine named by `dmi`: libinput's quirk for it (DMI `svnFramework:pnLaptop*`) disables
    /// that button, so it reports 0 button events there and 2 elsewhere.
    static func frameworkTouchpad(dmi: String) throws -> Recording {
        var device = SyntheticDevice.touchpad(name: "PIXA3854:00 093A:0274 Touchpad")
        device.codes[EvdevCodes.EV_KEY, default: []].append(0x111)
        device.properties = [EvdevCodes.INPUT_PROP_POINTER]
        var script = FrameScript()
        script.frame([FrameScript.key(0x111, 1)])
        script.frame([FrameScript.key(0x111, 0)])
        device.frames = script.frames
        var recording = try recording([device], name: "framework")
        recording.dmi = dmi
        return recording
    }
    static let frameworkDMI = "dmi:bvnINSYDECorp.:bvr03.19:svnFramework:pnLaptop(12thGenIntelCore):pvrA6:"
    static let lenovoDMI = "dmi:bvnLENOVO:bvrN2HET77W:svnLENOVO:pn20QDS3E200:pvrThinkPadX1Carbon7th:"

    static func mouse() throws -> Recording {
        var s = FrameScript()
        s.frame([E.rel(0, 5), E.rel(1, -3)])
        s.frame([E.rel(0, -2)])
        s.frame([EvdevEvent(type: 4, code: 4, value: 0x90001), E.key(0x110, 1)])
        s.frame([EvdevEvent(type: 4, code: 4, value: 0x90001), E.key(0x110, 0)], advance: 100_000)
        s.frame([E.rel(8, -1), E.rel(11, -120)])
        s.frame([E.key(0x111, 1)], advance: 100_000)
        s.frame([E.key(0x111, 0)])
        var device = SyntheticDevice.mouse()
        device.frames = s.frames
        return try recording([device], name: "mouse.yml")
    }

    static func keyboard() throws -> Recording {
        var s = FrameScript()
        s.frame([EvdevEvent(type: 4, code: 4, value: 30), E.key(30, 1)], advance: 600_000)
        s.frame([E.key(30, 2)], advance: 33_000)
        s.frame([E.key(30, 2)])
        s.frame([EvdevEvent(type: 4, code: 4, value: 30), E.key(30, 0)])
        s.frame([E.key(42, 1)])
        s.frame([E.key(28, 1)])
        s.frame([E.key(28, 0)])
        s.frame([E.key(42, 0)])
        var device = SyntheticDevice.keyboard()
        device.frames = s.frames
        return try recording([device], name: "keyboard.yml")
    }

    /// Three fingers land together and move right 40 units (1.3 mm) per 10 ms, 20 times; with
    /// more `steps`, one such swipe per step (units per 10 ms, negative to the left), half a
    /// second apart.
    static func touchpadThreeFingerSwipe(steps: [Int32] = [40]) throws -> Recording {
        var s = FrameScript()
        let y: Int32 = 900
        for (n, step) in steps.enumerated() {
            var xs: [Int32] = step > 0 ? [1000, 1300, 1600] : [1900, 2200, 2500]
            var first: [EvdevEvent] = []
            for i in 0..<3 { first += touch(slot: Int32(i), trackingID: Int32(10 + 3 * n + i), x: xs[i], y: y) }
            s.frame(first + [E.key(0x14a, 1), E.key(0x14e, 1), E.abs(0, xs[0]), E.abs(1, y)])
            for _ in 0..<20 {
                var frame: [EvdevEvent] = []
                for i in 0..<3 {
                    xs[i] += step
                    frame += [E.abs(0x2f, Int32(i)), E.abs(0x35, xs[i])]
                }
                s.frame(frame + [E.abs(0, xs[0])])
            }
            var last: [EvdevEvent] = []
            for i in 0..<3 { last += [E.abs(0x2f, Int32(i)), E.abs(0x39, -1)] }
            s.frame(last + [E.key(0x14a, 0), E.key(0x14e, 0)], advance: 500_000)
        }
        var device = SyntheticDevice.touchpad()
        device.frames = s.frames
        return try recording([device], name: "touchpad-swipe.yml")
    }
}
