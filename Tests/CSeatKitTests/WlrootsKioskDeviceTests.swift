import Foundation
import SeatKitReplay
import Testing

/// The wlroots kiosk's device options (issue 24, goal 4): `--ignore-device NAME` leaves a
/// device out. Two keyboards on an umockdev udev seat, read by SeatKit's own libinput
/// (`--libinput`), type into wev.
@Suite(.serialized) struct WlrootsKioskDeviceTests {
    typealias Session = WlrootsKioskAccessibilityTests.Session

    /// `--ignore-device "Ignored Keyboard"`: the kiosk's device opener refuses that keyboard
    /// (by its kernel name), so its B never reaches wev, while the other keyboard's C does.
    /// Without the option, both keyboards type.
    @Test func anIgnoredDeviceNeverReachesTheApp() throws {
        let keyboards = [SyntheticDevice.keyboard(name: "Kiosk Keyboard", node: "/dev/input/event12"),
                         SyntheticDevice.keyboard(name: "Ignored Keyboard", node: "/dev/input/event13")]
        do {
            let session = try Session(["--ignore-device", "Ignored Keyboard"], devices: keyboards)
            #expect(session.server.text.contains("ignored device Ignored Keyboard"), "\(session.log)")
            try session.tap(WlrootsKioskAccessibilityTests.keyB, device: 1)
            try session.tap(WlrootsKioskAccessibilityTests.keyC, device: 0)
            try #require(session.waitForWevKeys(2), "\(session.log)")
            #expect(session.wevKeys == ["54 1", "54 0"], "only the C of the keyboard not ignored:\n\(session.log)")
        }
        let both = try Session([], devices: keyboards)
        try both.tap(WlrootsKioskAccessibilityTests.keyB, device: 1)
        try both.tap(WlrootsKioskAccessibilityTests.keyC, device: 0)
        try #require(both.waitForWevKeys(4), "\(both.log)")
        #expect(both.wevKeys == ["56 1", "56 0", "54 1", "54 0"], "\(both.log)")
        #expect(!both.server.text.contains("ignored device"))
    }

    /// `--no-pointer`: a touch-only seat. wev, given a replayed touch recording, binds
    /// wl_touch but no wl_pointer (the seat never offers one, though a touchscreen gives one
    /// for the emulation otherwise), gets every touch and no pointer event; and the cursor
    /// is off. Without the option, wev binds a wl_pointer on the same seat.
    @Test func noPointerMakesATouchOnlySeat() throws {
        let kiosk = try WlrootsKioskTests.builtKiosk()
        let recording = CProgramTests.packageRoot.appendingPathComponent("examples/kiosk-touch.yml").path
        func session(_ options: [String]) throws -> (wev: String, kiosk: String) {
            let runtime = try temporaryDirectory("seatkit-wlr-devices")
            defer { try? FileManager.default.removeItem(atPath: runtime) }
            var environment = WlrootsKioskLaunchTests.headless
            environment["XDG_RUNTIME_DIR"] = runtime
            let server = try Background(kiosk, ["--verbose", "--replay", recording] + options,
                                        environment: environment, log: runtime + "/kiosk.log")
            defer { server.stop() }
            let socket = try #require(WlrootsKioskLaunchTests.socket(of: server), "the kiosk did not start:\n\(server.text)")
            let wev = try Background("/usr/bin/stdbuf", ["-oL", "/usr/bin/wev"],
                                     environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket],
                                     log: runtime + "/wev.log")
            defer { wev.stop() }
            try #require(server.waitFor(timeout: 30) { $0.contains("replay finished") } != nil, "\(server.text)")
            let delivered = server.text.components(separatedBy: "\n").filter { $0.hasPrefix("deliver touch ") }.count
            _ = wev.waitFor(timeout: 10) { WlrootsKioskTests.touches(inWev: $0).count >= delivered }
            #expect(WlrootsKioskTests.touches(inWev: wev.text).count == delivered, "\(wev.text)")
            return (wev.text, server.text)
        }
        let touchOnly = try session(["--no-pointer"])
        #expect(touchOnly.kiosk.contains("touch-only seat: no pointer"))
        #expect(!touchOnly.wev.contains("wl_pointer]"), "no wl_pointer bound, no pointer event:\n\(touchOnly.wev)")
        #expect(touchOnly.wev.contains("wl_touch]"))
        let usual = try session([])
        #expect(usual.wev.contains("wl_pointer]"), "the same seat without --no-pointer offers a pointer:\n\(usual.wev)")
    }

    @Test func ignoreDeviceAndNoPointerRefuseBadCommandLines() throws {
        let kiosk = try WlrootsKioskTests.builtKiosk()
        let result = try run(kiosk, ["--ignore-device", ""], environment: [:])
        #expect(result.status == 2 && result.output == "wlroots-kiosk: --ignore-device: names no device (see --help)\n", "\(result.output)")
        let many = try run(kiosk, Array(repeating: ["--ignore-device", "x"], count: 17).flatMap { $0 }, environment: [:])
        #expect(many.status == 2 && many.output.hasPrefix("wlroots-kiosk: --ignore-device: 'x' is one device too many"), "\(many.output)")
        let cursor = try run(kiosk, ["--no-pointer", "--cursor", "always"], environment: [:])
        #expect(cursor.status == 2 && cursor.output == "wlroots-kiosk: --no-pointer and --cursor always cannot be used together (see --help)\n",
                "\(cursor.output)")
    }
}
