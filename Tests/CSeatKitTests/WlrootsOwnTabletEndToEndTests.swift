import Foundation
import SeatKitReplay
import Testing

/// The wlroots kiosk without `--libinput`, as on a DRM panel: wlroots' own libinput backend
/// (WLR_BACKENDS=headless,libinput) opens a pen tablet emulated by umockdev and creates its
/// WLR_INPUT_DEVICE_TABLET_TOOL device; the kiosk hands it to the bridge
/// (seatkit_wlr_seat_add_input_device), SeatKit routes the pen, and a GTK4 app's
/// GtkGestureStylus gets it through wlroots' tablet-v2.
///
/// wlroots 0.15 needs a session to run its libinput backend: libseat 0.7's noop backend never
/// enables the seat, so the benchmark's libseat stand-in (Benchmarks/CompositorCPU/
/// libseat-shim.c, built here with cc) is preloaded before umockdev's preload, which then
/// redirects the devices it opens to the testbed. The pen is written to the emulated node by
/// this test as the kernel would; libinput, inside the kiosk, reads it.
@Suite(.serialized) struct WlrootsOwnTabletEndToEndTests {
    /// The libseat stand-in, built into `directory`.
    static func libseatShim(in directory: String) throws -> String {
        let shim = directory + "/libseat-shim.so"
        let source = CProgramTests.packageRoot.appendingPathComponent("Benchmarks/CompositorCPU/libseat-shim.c").path
        let cc = try run("/usr/bin/cc", ["-shared", "-fPIC", "-O2", "-o", shim, source])
        try #require(cc.status == 0, "cc failed:\n\(cc.output)")
        return shim
    }

    /// The kiosk (`--verbose`) on wlroots' headless and libinput backends, seeing `devices`;
    /// its socket once it listens.
    static func startKiosk(_ runtime: String, _ devices: EmulatedInputDevices) throws -> (Background, String) {
        let kiosk = try WlrootsKioskTests.builtKiosk()
        var environment = try devices.environment()
        environment["LD_PRELOAD"] = try libseatShim(in: runtime) + ":" + (environment["LD_PRELOAD"] ?? "")
        environment.merge(["XDG_RUNTIME_DIR": runtime, "WLR_BACKENDS": "headless,libinput",
                           "WLR_RENDERER": "pixman"]) { $1 }
        let server = try Background(kiosk, ["--verbose", "--size", "1280x720"], environment: environment,
                                    log: runtime + "/kiosk.log")
        guard let socket = server.waitFor(timeout: 30, { $0.contains("listening on ") })
            .flatMap({ text in text.split(separator: "\n").first { $0.hasPrefix("listening on ") } })
            .map({ String($0.dropFirst("listening on ".count)) }) else {
            server.stop()
            throw WlrootsKioskBehaviourTests.KioskDidNotStart(log: server.text)
        }
        return (server, socket)
    }

    /// Writes `frames` to emulated device `index` at once, each stamped now.
    static func write(_ frames: [EvdevFrame], to devices: EmulatedInputDevices, device index: Int) throws {
        for frame in frames {
            let events = frame.events.last.map { $0.type == 0 && $0.code == 0 } == true ? Array(frame.events.dropLast()) : frame.events
            try devices.write(events, toDevice: index)
        }
    }

    /// Writes a pen's `stroke` to emulated device `index` one frame at a time, each once
    /// `app` printed a line for the one before (GTK merges the motions that reach it in one
    /// frame of its clock: written at once, the stroke's motions arrive as one, with the up's
    /// zero pressure). First the pen comes in and leaves at once: libinput 1.22 forces a
    /// proximity out after 50 ms without events until the tablet has once sent its own
    /// BTN_TOOL_PEN release, and waiting for GTK between frames takes longer.
    static func writePaced(_ stroke: [EvdevFrame], to devices: EmulatedInputDevices, device index: Int, app: Background) throws {
        typealias E = FrameScript
        var hover = FrameScript(startingAt: 0)
        hover.frame([E.key(0x140, 1), E.abs(0, 100), E.abs(1, 100), E.abs(0x19, 20), WlrootsKioskPenTests.serial()], advance: 10_000)
        hover.frame([E.key(0x140, 0), E.abs(0x19, 63), WlrootsKioskPenTests.serial()], advance: 10_000)
        try write(hover.frames, to: devices, device: index)
        for (i, frame) in stroke.enumerated() {
            let before = app.text.split(separator: "\n").count
            try write([frame], to: devices, device: index)
            // The last frame (the pen leaving) prints nothing.
            if i < stroke.count - 1 {
                _ = app.waitFor(timeout: 10) { $0.split(separator: "\n").count > before }
            }
        }
    }

    /// The kiosk seeing `recorded` (emulated), with the GTK stylus app (GTKStylusApp) mapped:
    /// `play` writes to the devices; the app's output (with WAYLAND_DEBUG when `debug`) and
    /// the kiosk's log once the app saw the stroke's up.
    static func gtkStroke(_ recorded: [RecordedDevice], debug: Bool = false,
                          until done: (String) -> Bool = { $0.contains("\nup ") || $0.hasPrefix("up ") },
                          play: (EmulatedInputDevices, Background) throws -> Void) throws -> (app: String, kiosk: String) {
        let runtime = try temporaryDirectory("seatkit-wlr-own-tablet")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let devices = try EmulatedInputDevices(recorded)
        let (server, socket) = try startKiosk(runtime, devices)
        defer { server.stop() }
        // wlroots' libinput backend made a tablet device and the bridge took it.
        try #require(server.waitFor(timeout: 30, { text in
            text.split(separator: "\n").contains { $0.contains("tablet ") && $0.hasSuffix(" added") }
        }) != nil,
                     "wlroots' tablet never reached the bridge:\n\(server.text.suffix(3000))")
        let script = runtime + "/gtk-pen.py"
        try GTKStylusApp.script.write(toFile: script, atomically: true, encoding: .utf8)
        let app = try Background("/usr/bin/python3", [script],
                                 environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket, "HOME": runtime,
                                               "GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo", "GTK_A11Y": "none",
                                               "NO_AT_BRIDGE": "1", "LANG": "C.UTF-8"].merging(debug ? ["WAYLAND_DEBUG": "1"] : [:]) { a, _ in a },
                                 log: runtime + "/gtk.log")
        defer { app.stop() }
        try #require(app.waitFor(timeout: 60) { $0.contains("ready") } != nil,
                     "GTK never mapped:\n\(app.text.suffix(3000))\nkiosk:\n\(server.text.suffix(3000))")
        try play(devices, app)
        _ = app.waitFor(timeout: 20, done)
        return (app.text, server.text)
    }

    /// A pen on the tablet wlroots' libinput backend opened: GTK's stylus gesture gets it as
    /// a pen through tablet-v2, where it touched, with the pressure rising along the stroke.
    @Test func aPenOnATabletWlrootsCreatedReachesGTKThroughTabletV2WithPressure() throws {
        // Tablet (5000, 4000) of 20000x12000: (320, 240) on the 1280x720 screen.
        let (text, kiosk) = try Self.gtkStroke([WlrootsKioskPenTests.penTablet([])]) { devices, app in
            try Self.writePaced(WlrootsKioskPenTests.stroke(5000, 4000, eraser: false, wait: 0), to: devices, device: 0, app: app)
        }
        #expect(kiosk.contains("deliver tablet proximity in"), "\(kiosk.suffix(3000))")
        #expect(!kiosk.contains("deliver pen as pointer"), "GTK has a tablet seat: \(kiosk.suffix(2000))")
        let down = try #require(WlrootsKioskPenTests.lines(text, "down ").first,
                                "no stylus down:\n\(text)\nkiosk:\n\(kiosk.suffix(3000))")
        #expect(down.hasPrefix("down 319 239 tool=pen pressure=0.29") || down.hasPrefix("down 320 240 tool=pen pressure=0.29"),
                "\(down)")
        let motions = WlrootsKioskPenTests.lines(text, "motion ")
        let pressures = motions.compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("pressure=") }.flatMap { Double($0.dropFirst(9)) }
        }
        // wlroots' libinput backend sends the tip's up with its axes first: the last motion,
        // just before the up, has the lifted pen's zero pressure. Before it the pressure rises
        // with each step (600 + 200 i of 2047).
        let pressing = pressures.filter { $0 > 0 }
        #expect(pressing.count >= 5 && zip(pressing, pressing.dropFirst()).allSatisfy { $0 < $1 } && pressing.last! > 0.7,
                "\(motions)")
        #expect(WlrootsKioskPenTests.lines(text, "up ").count == 1, "\(text)")
    }

    /// The tablet's pad, which wlroots' libinput backend opened too, reaches GTK through
    /// tablet-v2: announced with its four buttons, it enters GTK's window, and a press and
    /// release of its second button arrive, as GTK's libwayland decoded them (WAYLAND_DEBUG:
    /// GTK 4.8 shows pad events to no controller an app can add).
    @Test func aPadOnATabletWlrootsCreatedReachesGTKThroughTabletV2() throws {
        typealias E = FrameScript
        var pad = FrameScript(startingAt: 0)
        pad.frame([E.key(0x101, 1), E.abs(0x28, 15)], advance: 40_000)
        pad.frame([E.key(0x101, 0), E.abs(0x28, 0)], advance: 40_000)
        let padFrames = pad.frames
        let released: (String) -> Bool = { $0.contains("zwp_tablet_pad_v2@") && $0.contains(".button(") && $0.contains(", 1, 0)") }
        let (app, kiosk) = try Self.gtkStroke([WlrootsKioskPenTests.penTablet([]), WlrootsKioskPenTests.pad([])], debug: true,
                                              until: released) { devices, _ in
            try Self.write(WlrootsKioskPenTests.stroke(5000, 4000, eraser: false, wait: 0), to: devices, device: 0)
            try Self.write(padFrames, to: devices, device: 1)
        }
        let wire = app.split(separator: "\n").filter { $0.contains("zwp_tablet_pad") || $0.contains(".pad_added(") }
        #expect(kiosk.contains("pad ") && kiosk.contains(" added"), "\(kiosk.suffix(3000))")
        #expect(wire.contains { $0.contains(".pad_added(") }, "the pad was not announced: \(wire)")
        #expect(wire.contains { $0.contains("zwp_tablet_pad_v2@") && $0.contains(".buttons(4)") }, "\(wire)")
        let enter = try #require(wire.firstIndex { $0.contains("zwp_tablet_pad_v2@") && $0.contains(".enter(") },
                                 "the pad never entered the window:\n\(wire)\nkiosk:\n\(kiosk.suffix(3000))")
        let buttons = wire[enter...].filter { $0.contains("zwp_tablet_pad_v2@") && $0.contains(".button(") }
        #expect(buttons.count == 2 && buttons.first?.hasSuffix(", 1, 1)") == true && buttons.last?.hasSuffix(", 1, 0)") == true,
                "\(buttons)\nkiosk:\n\(kiosk.suffix(3000))")
    }
}
