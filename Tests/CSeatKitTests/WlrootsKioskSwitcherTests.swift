import Foundation
import SeatKitReplay
import Testing

/// The wlroots kiosk's app switcher (a three-finger swipe recognizer on the screen, on while
/// two apps are mapped, with the gathering limits seatkit_recognizer_set_maximum_travel_until_all_touches
/// (10 mm) and seatkit_recognizer_set_maximum_delay_until_all_touches (250 ms)), checked in what
/// two real wev clients printed under the headless backend: what the switcher holds back while
/// it waits for more fingers is the app's once it cannot be a swipe.
@Suite(.serialized) struct WlrootsKioskSwitcherTests {
    typealias E = FrameScript

    /// A one-finger drag from (300, 360) to (600, 360) in 10 steps of 30 points, 16 ms apart
    /// (the second step is past the switcher's 10 mm: the touchscreen is 4095 units at 16 a
    /// millimetre over the 1280-point output, 0.2 mm a point), lifted; half a second later three
    /// fingers land together at x 300 and swipe 500 points right.
    static func dragThenSwipe() -> FrameScript {
        var s = FrameScript(startingAt: 0)
        s.time = 500_000
        let (dx, dy) = WlrootsKioskBehaviourTests.raw(300, 360)
        s.frame([E.abs(0x2f, 0), E.abs(0x39, 1), E.abs(0x35, dx), E.abs(0x36, dy), E.key(0x14a, 1), E.abs(0, dx), E.abs(1, dy)],
                advance: 16_000)
        for step in 1...10 {
            let (rx, _) = WlrootsKioskBehaviourTests.raw(300 + Double(step) * 30, 360)
            s.frame([E.abs(0x2f, 0), E.abs(0x35, rx), E.abs(0, rx)], advance: 16_000)
        }
        s.frame([E.abs(0x2f, 0), E.abs(0x39, -1), E.key(0x14a, 0)], advance: 500_000)

        let ys: [Double] = [200, 360, 520]
        var down: [EvdevEvent] = []
        for (slot, y) in ys.enumerated() {
            let (rx, ry) = WlrootsKioskBehaviourTests.raw(300, y)
            down += [E.abs(0x2f, Int32(slot)), E.abs(0x39, Int32(10 + slot)), E.abs(0x35, rx), E.abs(0x36, ry)]
        }
        let (x0, y0) = WlrootsKioskBehaviourTests.raw(300, ys[0])
        s.frame(down + [E.key(0x14a, 1), E.abs(0, x0), E.abs(1, y0)], advance: 16_000)
        for step in 1...10 {
            var moved: [EvdevEvent] = []
            for slot in ys.indices {
                let (rx, _) = WlrootsKioskBehaviourTests.raw(300 + Double(step) * 50, ys[slot])
                moved += [E.abs(0x2f, Int32(slot)), E.abs(0x35, rx)]
            }
            s.frame(moved, advance: 16_000)
        }
        var up: [EvdevEvent] = []
        for slot in ys.indices { up += [E.abs(0x2f, Int32(slot)), E.abs(0x39, -1)] }
        s.frame(up + [E.key(0x14a, 0)], advance: 500_000)
        return s
    }

    static func lines(_ text: String, containing needle: String) -> [String] {
        text.components(separatedBy: "\n").filter { $0.contains(needle) }
    }

    /// With two wev windows mapped (so the switcher is on), the replay plays a one-finger drag
    /// then a three-finger swipe. The drag reaches the shown app whole (its down where the
    /// finger landed, motions to where it stopped, its up; nothing cancelled) and switches
    /// nothing; the swipe then switches to the other app, whose touches are cancelled.
    @Test func aOneFingerDragReachesTheAppWholeAndSwitchesNothingWhileAThreeFingerSwipeSwitches() throws {
        let runtime = try temporaryDirectory("seatkit-wlr-switcher")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let recording = runtime + "/drag-then-swipe.yml"
        try WlrootsKioskBehaviourTests.write(Self.dragThenSwipe(), to: recording)

        let kiosk = try WlrootsKioskTests.builtKiosk()
        let server = try Background(kiosk, ["--verbose", "--replay", recording, "--start-after-windows", "2", "--size", "1280x720"],
                                    environment: ["XDG_RUNTIME_DIR": runtime, "WLR_BACKENDS": "headless",
                                                  "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"],
                                    log: runtime + "/kiosk.log")
        defer { server.stop() }
        let socket = try #require(WlrootsKioskLaunchTests.socket(of: server), "the kiosk did not start:\n\(server.text)")
        func wev(_ name: String) throws -> Background {
            try Background("/usr/bin/stdbuf", ["-oL", "/usr/bin/wev"],
                           environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket], log: runtime + "/\(name).log")
        }
        let first = try wev("first")
        defer { first.stop() }
        try #require(server.waitFor(timeout: 30) { Self.lines($0, containing: "mapped wev").count == 1 } != nil,
                     "the first wev did not map:\n\(server.text)")
        try #require(first.waitFor(timeout: 30) { $0.contains("wl_keyboard] enter:") } != nil)
        let second = try wev("second")
        defer { second.stop() }
        try #require(server.waitFor(timeout: 30) { $0.contains("replay finished") } != nil,
                     "the replay did not finish:\n\(server.text)")
        _ = first.waitFor(timeout: 10) { Self.lines($0, containing: "wl_keyboard] enter:").count >= 2 }
        _ = second.waitFor(timeout: 10) { WlrootsKioskTests.touches(inWev: $0).contains("cancel") }

        // The drag: the shown (newer) app got it whole, as one touch.
        let touches = WlrootsKioskTests.touches(inWev: second.text)
        let dragUp = try #require(touches.firstIndex { $0.hasPrefix("up ") }, "the drag was never lifted in the app: \(touches)")
        let dragTouches = Array(touches[...dragUp])
        #expect(dragTouches.first?.hasPrefix("down ") == true && dragTouches.first?.hasSuffix(" 300.00 360.00") == true,
                "the drag's down, where the finger landed: \(dragTouches)")
        #expect(dragTouches.filter { $0.hasPrefix("down ") }.count == 1, "\(dragTouches)")
        let motions = dragTouches.filter { $0.hasPrefix("motion ") }
        #expect(!motions.isEmpty, "the drag's motions: \(dragTouches)")
        #expect(motions.last?.hasSuffix(" 600.00 360.00") == true, "the last motion, where the finger stopped: \(dragTouches)")
        #expect(!dragTouches.contains("cancel"), "\(dragTouches)")
        let id = dragTouches.first.map { $0.split(separator: " ")[1] }
        #expect(dragTouches.allSatisfy { $0.split(separator: " ").dropFirst().first == id }, "one touch: \(dragTouches)")

        // The swipe: three downs in one frame after the drag, then one cancel; no up.
        let swipe = Array(touches[(dragUp + 1)...])
        #expect(swipe.filter { $0.hasPrefix("down") }.count == 3, "second wev, after the drag: \(swipe)")
        #expect(swipe.filter { $0 == "cancel" }.count == 1, "\(swipe)")
        #expect(!swipe.contains { $0.hasPrefix("up") }, "\(swipe)")

        // The kiosk switched once, after the drag's up reached the app: the drag switched nothing.
        let kioskLines = server.text.components(separatedBy: "\n")
        #expect(kioskLines.filter { $0.contains("switched to wev") }.count == 1, "kiosk:\n\(server.text)")
        let switched = try #require(kioskLines.firstIndex { $0.contains("switched to wev") })
        let dragUpDelivered = try #require(kioskLines.firstIndex { $0.hasPrefix("deliver touch up") }, "kiosk:\n\(server.text)")
        #expect(dragUpDelivered < switched, "the switch came after the drag ended: kiosk:\n\(server.text)")
        // The older app was shown again (the keyboard back) and got no touch at all.
        #expect(Self.lines(first.text, containing: "wl_keyboard] enter:").count == 2, "first wev:\n\(first.text)")
        #expect(WlrootsKioskTests.touches(inWev: first.text).isEmpty, "first wev: \(WlrootsKioskTests.touches(inWev: first.text))")
    }
}
