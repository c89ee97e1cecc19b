import Foundation
import SeatKitReplay
import Testing

/// Tablet pads in the wlroots kiosk with live libinput (`--libinput` over devices umockdev
/// emulates, as WlrootsKioskIdleLockTests): a pad goes where the keyboard focus is before any
/// pen came (the bridge offers the tablet when the device appears,
/// seatkit_wlr_seat_add_tablet), follows the focus from window to window, and a mode switch
/// of a pad libwacom knows reaches the client as its group's mode_switch (issue 27).
@Suite(.serialized) struct WlrootsKioskPadFocusTests {
    typealias E = FrameScript

    /// The kiosk reading `devices` (emulated as event100...) with SeatKit's live libinput,
    /// and its clients.
    final class Session {
        let devices: EmulatedInputDevices
        let runtime: String
        let server: Background
        let socket: String
        private var clients: [Background] = []

        init(_ devices: [RecordedDevice], options: [String] = []) throws {
            let kiosk = try WlrootsKioskTests.builtKiosk()
            self.devices = try EmulatedInputDevices(devices)
            runtime = try temporaryDirectory("seatkit-wlr-pad")
            var environment = try self.devices.environment()
            environment.merge(WlrootsKioskLaunchTests.headless) { $1 }
            environment.merge(["XDG_RUNTIME_DIR": runtime, "HOME": runtime, "LANG": "C.UTF-8"]) { $1 }
            server = try Background(kiosk, ["--verbose", "--libinput", "--seat", "seat0", "--size", "1280x720"] + options,
                                    environment: environment, log: runtime + "/kiosk.log")
            guard let socket = WlrootsKioskLaunchTests.socket(of: server) else {
                server.stop()
                throw WlrootsKioskBehaviourTests.KioskDidNotStart(log: server.text)
            }
            self.socket = socket
        }

        /// The GTK stylus app (its libwayland's WAYLAND_DEBUG log beside its own lines in
        /// NAME.log), once its window is up.
        func gtk(_ name: String) throws -> Background {
            let script = runtime + "/gtk-pen.py"
            if !FileManager.default.fileExists(atPath: script) {
                try GTKStylusApp.script.write(toFile: script, atomically: true, encoding: .utf8)
            }
            let app = try Background("/usr/bin/python3", [script],
                                     environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket, "HOME": runtime,
                                                   "GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo", "GTK_A11Y": "none",
                                                   "NO_AT_BRIDGE": "1", "LANG": "C.UTF-8", "WAYLAND_DEBUG": "1"],
                                     log: runtime + "/\(name).log")
            clients.append(app)
            try #require(app.waitFor(timeout: 60) { $0.contains("\nready") || $0.hasPrefix("ready") } != nil,
                         "\(name) did not come up:\n\(app.text.suffix(3000))\nkiosk:\n\(server.text.suffix(3000))")
            return app
        }

        func write(_ frames: [[EvdevEvent]], toDevice index: Int) throws {
            for frame in frames { try devices.write(frame, toDevice: index) }
        }

        func stop() {
            for c in clients { c.stop() }
            server.stop()
            try? FileManager.default.removeItem(atPath: runtime)
        }
    }

    /// A pad button (BTN_0 + index) pressed and released, ABS_MISC telling the pad is used.
    static func padButton(_ index: UInt16) -> [[EvdevEvent]] {
        [[E.key(0x100 + index, 1), E.abs(0x28, 15)], [E.key(0x100 + index, 0), E.abs(0x28, 0)]]
    }

    static func lines(_ text: String, _ prefix: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.hasPrefix(prefix) }
    }

    /// The tablet-v2 pad events a WAYLAND_DEBUG log shows received.
    static func padWire(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { !$0.contains(" -> ") && ($0.contains("zwp_tablet_pad") || $0.contains(".pad_added(")) }
    }

    /// The pen never comes over a surface: the pad enters the window that has
    /// the keyboard focus, its buttons go there, and when a second window takes the focus the
    /// pad leaves the first and enters it.
    @Test func aPadWithNoPenYetGoesToTheKeyboardFocusAndFollowsItToTheNextWindow() throws {
        let s = try Session([WlrootsKioskPenTests.penTablet([]), WlrootsKioskPenTests.pad([])])
        defer { s.stop() }
        try #require(s.server.waitFor(timeout: 30) { $0.contains("pad ") && $0.contains(" added") } != nil,
                     "the kiosk was told of no pad:\n\(s.server.text.suffix(4000))")
        let first = try s.gtk("first")
        try #require(first.waitFor(timeout: 20) { Self.padWire($0).contains { $0.contains("zwp_tablet_pad_v2@") && $0.contains(".enter(") } } != nil,
                     "the pad did not enter the focused window:\n\(Self.padWire(first.text))\nkiosk:\n\(s.server.text.suffix(4000))")
        #expect(Self.padWire(first.text).contains { $0.contains("zwp_tablet_pad_v2@") && $0.contains(".buttons(4)") })
        try s.write(Self.padButton(1), toDevice: 1)
        let buttons = try #require(first.waitFor(timeout: 20) {
            Self.padWire($0).filter { $0.contains("zwp_tablet_pad_v2@") && $0.contains(".button(") }.count == 2
        }, "the pad's button did not reach the focused window:\n\(Self.padWire(first.text))\nkiosk:\n\(s.server.text.suffix(3000))")
        let pressed = Self.padWire(buttons).filter { $0.contains(".button(") }
        #expect(pressed.first?.hasSuffix(", 1, 1)") == true && pressed.last?.hasSuffix(", 1, 0)") == true, "\(pressed)")
        #expect(!s.server.text.contains("deliver tablet proximity in"), "no pen came in")

        let second = try s.gtk("second")
        try #require(second.waitFor(timeout: 20) { Self.padWire($0).contains { $0.contains("zwp_tablet_pad_v2@") && $0.contains(".enter(") } } != nil,
                     "the pad did not follow the keyboard focus:\n\(Self.padWire(second.text))\nkiosk:\n\(s.server.text.suffix(4000))")
        #expect(first.waitFor(timeout: 10) { Self.padWire($0).contains { $0.contains("zwp_tablet_pad_v2@") && $0.contains(".leave(") } } != nil,
                "the first window's pad was not told it left: \(Self.padWire(first.text))")
        try s.write(Self.padButton(2), toDevice: 1)
        #expect(second.waitFor(timeout: 20) { Self.padWire($0).filter { $0.contains(".button(") }.count == 2 } != nil,
                "\(Self.padWire(second.text))")
        #expect(Self.padWire(first.text).filter { $0.contains(".button(") }.count == 2, "the first window heard no more: \(Self.padWire(first.text))")
    }

    /// A Wacom Intuos Pro M's pad (PTH-660, usb 056a:0357: in Debian 12's libwacom data, nine
    /// buttons A...I, a ring with four modes switched by button I, one status LED group).
    /// libinput reads the mode of the ring's group from the LEDs the kernel lights, in
    /// `leds` (`LIBINPUT_TEST_TABLET_PAD_SYSFS_PATH`, libinput's own hook for that sysfs
    /// directory: umockdev's /sys has no LED class devices): `leds`/wacom-0.M/brightness.
    static func intuosProPad(leds: String) -> RecordedDevice {
        RecordedDevice(node: "/dev/input/event11", name: "Wacom Intuos Pro M Pad",
                       identity: InputDeviceIdentity(bustype: 3, vendor: 0x056a, product: 0x0357, version: 0x110),
                       codes: [1: [0x100, 0x101, 0x102, 0x103, 0x104, 0x105, 0x106, 0x107, 0x108, 0x14b], 3: [0, 1, 0x08, 0x28]],
                       absoluteAxes: [0: AbsoluteAxisInfo(minimum: 0, maximum: 1),
                                      1: AbsoluteAxisInfo(minimum: 0, maximum: 1),
                                      0x08: AbsoluteAxisInfo(minimum: 0, maximum: 71),
                                      0x28: AbsoluteAxisInfo(minimum: 0, maximum: 0xffffff)],
                       udevProperties: ["ID_INPUT=1", "ID_INPUT_TABLET=1", "ID_INPUT_TABLET_PAD=1", "ID_BUS=usb",
                                        "ID_VENDOR_ID=056a", "ID_MODEL_ID=0357",
                                        "LIBINPUT_TEST_TABLET_PAD_SYSFS_PATH=\(leds)/wacom-"],
                       frames: [])
    }

    /// Lights the LED of `mode` of the ring's group (group 0), as the kernel does when the
    /// mode button is pressed.
    static func light(_ mode: Int, in leds: String) throws {
        for m in 0..<4 {
            let dir = leds + "/wacom-0.\(m)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try (m == mode ? "255\n" : "0\n").write(toFile: dir + "/brightness", atomically: false, encoding: .utf8)
        }
    }

    /// A pad libwacom knows has a ring group of four modes: its mode button (button I, the
    /// ninth: BTN_8) switches the mode, libinput reports the new mode with the button, and
    /// the client the pad is on gets the group's mode_switch through the wlroots kiosk
    /// (without a libwacom entry libinput reports one group of one mode: nothing to switch).
    @Test func aModeSwitchOfAPadLibwacomKnowsReachesTheClientAsModeSwitch() throws {
        let leds = try temporaryDirectory("seatkit-wacom-leds")
        defer { try? FileManager.default.removeItem(atPath: leds) }
        try Self.light(0, in: leds)
        let s = try Session([WlrootsKioskPenTests.penTablet([]), Self.intuosProPad(leds: leds)])
        defer { s.stop() }
        try #require(s.server.waitFor(timeout: 30) { $0.contains("pad ") && $0.contains(" added") } != nil,
                     "the kiosk was told of no pad:\n\(s.server.text.suffix(4000))")
        let app = try s.gtk("gtk")
        try #require(app.waitFor(timeout: 20) { Self.padWire($0).contains { $0.contains("zwp_tablet_pad_v2@") && $0.contains(".enter(") } } != nil,
                     "the pad did not enter the window:\n\(Self.padWire(app.text))\nkiosk:\n\(s.server.text.suffix(4000))")
        let wire = Self.padWire(app.text)
        #expect(wire.contains { $0.contains("zwp_tablet_pad_v2@") && $0.contains(".buttons(9)") }, "\(wire)")
        #expect(wire.contains { $0.contains("zwp_tablet_pad_group_v2@") && $0.contains(".modes(4)") },
                "libinput found no mode groups (libwacom did not match the pad?): \(wire)\nkiosk:\n\(s.server.text.suffix(3000))")
        #expect(wire.contains { $0.contains(".mode_switch(") && $0.hasSuffix(", 0)") }, "the enter's mode: \(wire)")
        try Self.light(1, in: leds)
        try s.write(Self.padButton(8), toDevice: 1)
        let after = try #require(app.waitFor(timeout: 20) { Self.padWire($0).contains { $0.contains(".mode_switch(") && $0.hasSuffix(", 1)") } },
                                 "no mode_switch to mode 1:\n\(Self.padWire(app.text))\nkiosk:\n\(s.server.text.suffix(3000))")
        let lines = Self.padWire(after)
        let switchIndex = try #require(lines.lastIndex { $0.contains(".mode_switch(") && $0.hasSuffix(", 1)") })
        let pressIndex = try #require(lines.lastIndex { $0.contains(".button(") && $0.hasSuffix(", 8, 1)") }, "\(lines)")
        #expect(switchIndex < pressIndex, "the mode switch comes before the button that made it: \(lines)")
    }
}
