import Foundation
import SeatKitReplay
import Testing

/// The kiosk replaying a `libinput record` file through real libinput (under umockdev) into
/// real clients: what a recorded touchscreen, mouse and keyboard did arrives in wev, in
/// surface-local coordinates, with the keysyms and text of the kiosk's xkbcommon keymap.
extension EndToEndTests {
    @Test func wevReceivesTheTouchClickScrollAndKeysOfAReplayedRecording() throws {
        let recording = try ReplayRecordingFile(RecordingScripts.touchClickScrollAndKeys())
        // Flat acceleration: the mouse's 100,50 counts move the pointer 100,50 pixels.
        let session = try KioskSession(inputOptions: ["--replay", recording.path, "--start-after-windows", "1",
                                               "--devices", "accel-profile=flat"])
        let wev = try session.launch("wev")
        let window = try session.waitForWindow("wev")
        #expect(window.x == 0 && window.y == 0)
        try session.log.require("replay ended")
        try wev.output.require("sym: b")
        let log = WevLog(wev.output.text[...])

        // Touch: raw 1024,1024 and 1088,1024 of 4096 on the 1920x1080 output.
        #expect(log.events("wl_touch", "down").map { $0.hasSuffix("id: 0; x, y: 480.000000, 270.000000") } == [true], "\(log.events("wl_touch"))")
        #expect(log.events("wl_touch", "motion").contains { $0.hasSuffix("id: 0; x, y: 510.000000, 270.000000") }, "\(log.events("wl_touch"))")
        #expect(log.events("wl_touch", "up").count == 1)
        // Times keep the recording's rhythm: its touch frames are 10 ms apart.
        let touchTimes = ["down", "motion", "up"].compactMap { log.events("wl_touch", $0).first.flatMap(WevLog.time) }
        #expect(touchTimes.count == 3 && touchTimes[1] - touchTimes[0] == 10 && touchTimes[2] - touchTimes[1] == 10, "\(touchTimes)")

        // Pointer: from the origin by 100,50; the left button; one wheel click down.
        #expect(log.events("wl_pointer", "motion").last?.hasSuffix("x, y: 100.000000, 50.000000") == true, "\(log.events("wl_pointer", "motion"))")
        let buttons = log.events("wl_pointer", "button")
        #expect(buttons.count == 2, "\(buttons)")
        #expect(buttons.first?.contains("button: 272 (left), state: 1 (pressed)") == true)
        #expect(buttons.last?.contains("button: 272 (left), state: 0 (released)") == true)
        #expect(log.events("wl_pointer", "axis_source").first?.contains("0 (wheel)") == true)
        #expect(log.events("wl_pointer", "axis").contains { $0.contains("axis: 0 (vertical), value: 15.000000") }, "\(log.events("wl_pointer"))")

        // Keys: a, Shift+a, b. "A" proves the Shift modifier went from the kiosk's
        // xkbcommon state through wl_keyboard.modifiers into wev's own xkbcommon.
        let presses = log.events("wl_keyboard", "key").filter { $0.contains("state: 1 (pressed)") }
        #expect(presses.count == 4, "\(presses)")
        guard presses.count == 4 else { return }
        #expect(presses[0].contains("key: 38;") && presses[0].contains("sym: a") && presses[0].contains("utf8: 'a'"))
        #expect(presses[1].contains("key: 50;") && presses[1].contains("sym: Shift_L"))
        #expect(presses[2].contains("key: 38;") && presses[2].contains("sym: A") && presses[2].contains("utf8: 'A'"))
        #expect(presses[3].contains("key: 56;") && presses[3].contains("sym: b") && presses[3].contains("utf8: 'b'"))
        #expect(log.events("wl_keyboard", "modifiers").contains { $0.contains("depressed: 00000001") }, "\(log.events("wl_keyboard", "modifiers"))")
    }

    @Test func aReplayedRecordingReachesOnlyTheFocusedOfTwoClientsSideBySide() throws {
        // At the end, the mouse moves 700 to the right, into the other window: a barrier.
        let recording = try ReplayRecordingFile(RecordingScripts.touchClickScrollAndKeys(finalMouseMotion: 700))
        let session = try KioskSession(inputOptions: ["--replay", recording.path, "--start-after-windows", "2",
                                               "--devices", "accel-profile=flat"])
        let focused = try session.launch("wev")
        _ = try session.waitForWindow("wev")
        let other = try session.launch("wev")
        let b = try session.waitForWindow("wev", nth: 2)
        try session.log.require("replay ended")
        try focused.output.require("sym: b")
        #expect(b.x == 640, "the second window sits right of the first, away from every recorded position")
        // Events arrive in order, so the pointer's enter, last of all, must be the first
        // input event the other client got: nothing of the touch, click, scroll or keys.
        try other.output.require("wl_pointer] enter:")
        let otherEvents = WevLog(other.output.text[...]).inputEvents
        #expect(otherEvents.first?.contains("wl_pointer] enter:") == true, "the unfocused client got \(otherEvents)")
        #expect(otherEvents.first?.hasSuffix("x, y: 160.000000, 50.000000") == true, "enter is in the other surface's local space")
        #expect(otherEvents.allSatisfy { !$0.contains("wl_keyboard") && !$0.contains("wl_touch") }, "\(otherEvents)")
        try focused.output.require("wl_pointer] leave:")
    }
}

/// A recording written to a temporary file, removed with this object.
final class ReplayRecordingFile {
    let path: String
    private let directory: String

    init(_ recording: Recording) throws {
        var template = Array("/tmp/seatkit-recording-XXXXXX".utf8CString)
        guard let dir = mkdtemp(&template) else { throw SessionError("mkdtemp failed") }
        directory = String(cString: dir)
        path = directory + "/recording.yml"
        try RecordingWriter.text(of: recording).write(toFile: path, atomically: true, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }
}

/// Recordings written with SeatKitReplay's writer, in the `libinput record` format.
enum RecordingScripts {
    typealias E = FrameScript

    /// A touchscreen tap with a small move, a mouse move, left click and wheel click, and the
    /// keys a, Shift+a, b: each device's frames at their own recording times (µs).
    /// `finalMouseMotion`: pixels the mouse moves right at the very end (flat acceleration).
    static func touchClickScrollAndKeys(finalMouseMotion: Int32? = nil) throws -> Recording {
        var mouse = SyntheticDevice.mouse()
        var m = FrameScript(startingAt: 100_000)
        m.frame([E.rel(0, 100), E.rel(1, 50)], advance: 100_000)
        m.frame([EvdevEvent(type: 4, code: 4, value: 0x90001), E.key(0x110, 1)], advance: 100_000)
        m.frame([EvdevEvent(type: 4, code: 4, value: 0x90001), E.key(0x110, 0)], advance: 100_000)
        m.frame([E.rel(8, -1), E.rel(11, -120)])  // REL_WHEEL, REL_WHEEL_HI_RES: one click down
        if let dx = finalMouseMotion {
            m.time = 1_200_000
            m.frame([E.rel(0, dx)])
        }
        mouse.frames = m.frames

        var touchscreen = SyntheticDevice.touchscreen()
        var t = FrameScript(startingAt: 500_000)
        t.frame([E.abs(0x2f, 0), E.abs(0x39, 1), E.abs(0x35, 1024), E.abs(0x36, 1024), E.key(0x14a, 1), E.abs(0, 1024), E.abs(1, 1024)])
        t.frame([E.abs(0x35, 1088), E.abs(0, 1088)])
        t.frame([E.abs(0x39, -1), E.key(0x14a, 0)])
        touchscreen.frames = t.frames

        var keyboard = SyntheticDevice.keyboard()
        var k = FrameScript(startingAt: 700_000)
        for (key, value) in [(30, 1), (30, 0), (42, 1), (30, 1), (30, 0), (42, 0), (48, 1), (48, 0)] as [(UInt16, Int32)] {
            k.frame([E.key(key, value)], advance: 50_000)
        }
        keyboard.frames = k.frames

        let devices = [touchscreen, mouse, keyboard]
        let text = RecordingWriter.text(of: Recording(source: "kiosk-e2e.yml", declaredDeviceCount: devices.count, devices: devices))
        return try RecordingParser.parse(text, source: "kiosk-e2e.yml")
    }
}

extension EndToEndTests {
    /// A recording that does not parse stops the kiosk before it listens, with the file and
    /// line of the problem, and exit status 1: an error, not a crash.
    @Test func aMalformedRecordingStopsTheKioskWithTheFileAndLine() throws {
        // Next to a good recording, in a directory removed with it.
        let good = try ReplayRecordingFile(RecordingScripts.touchClickScrollAndKeys())
        let path = good.path + ".broken"
        try "# libinput record\nversion: 1\nndevices: 1\ndevices:\n- node: /dev/input/event0\n  evdev:\n    name: [oops\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let binary = try #require(KioskSession.kioskBinary(), "the kiosk product is not built next to the tests")
        let kiosk = Process()
        kiosk.executableURL = URL(fileURLWithPath: binary)
        kiosk.arguments = ["--socket", "seatkit-test-\(getpid())-broken", "--replay", path]
        kiosk.environment = ["XDG_RUNTIME_DIR": NSTemporaryDirectory()]
        let output = Pipe()
        kiosk.standardOutput = output
        kiosk.standardError = output
        try kiosk.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        kiosk.waitUntilExit()
        #expect(kiosk.terminationReason == .exit && kiosk.terminationStatus == 1, "\(printed)")
        #expect(printed.hasPrefix("kiosk: ") && printed.contains(path + ":"), "\(printed)")
        #expect(!printed.contains("listening on"))
    }
}
