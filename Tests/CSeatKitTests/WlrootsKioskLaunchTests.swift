import Foundation
import SeatKitReplay
import Testing

/// The wlroots kiosk as cage is deployed (issue 24, goals 2 and 6): `KIOSK [options] -- APP
/// [ARGS...]` starts the app with WAYLAND_DISPLAY set and exits with its status; SIGTERM
/// ends it and its app cleanly and silently; `--help`, `--version`, a bad option refused in
/// one line; the per-event log only with `--verbose`; and a long press on an app without
/// wl_touch (foot) is a secondary click that never clicks first.
@Suite(.serialized) struct WlrootsKioskLaunchTests {
    static let headless = ["WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"]

    /// The kiosk's socket, from its "listening on NAME" line.
    static func socket(of server: Background, timeout: Double = 30) -> String? {
        server.waitFor(timeout: timeout) { $0.contains("listening on ") }
            .flatMap { text in text.split(separator: "\n").first { $0.hasPrefix("listening on ") } }
            .map { String($0.dropFirst("listening on ".count)) }
    }

    /// The lines wlroots or SeatKit logged as errors, except the headless backend's own
    /// complaint that this machine has no DRM device (printed before anything starts).
    static func errors(_ text: String) -> [String] {
        text.components(separatedBy: "\n").filter { $0.contains("[ERROR]") && !$0.contains("drmGetDevices2") }
    }

    @Test func theAppIsStartedWithWaylandDisplayAndTheKioskExitsWithItsStatus() throws {
        let kiosk = try WlrootsKioskTests.builtKiosk()
        let runtime = try temporaryDirectory("seatkit-wlr-launch")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let server = try Background(kiosk, ["--", "sh", "-c", "echo \"app on $WAYLAND_DISPLAY\"; exit 7"],
                                    environment: Self.headless.merging(["XDG_RUNTIME_DIR": runtime]) { $1 },
                                    log: runtime + "/kiosk.log")
        defer { server.stop() }
        let status = server.exitStatus(timeout: 30)
        #expect(status == 7, "the app's status is the kiosk's:\n\(server.text)")
        let socket = try #require(Self.socket(of: server, timeout: 1), "\(server.text)")
        #expect(server.text.contains("app on \(socket)\n"), "the app got the kiosk's WAYLAND_DISPLAY:\n\(server.text)")
        // Teardown in order: nothing logged on the way out.
        #expect(Self.errors(server.text).isEmpty, "\(server.text)")
    }

    /// An app that cannot be started: the kiosk says why in one line and fails.
    @Test func anAppThatCannotBeStartedEndsTheKioskWithAReason() throws {
        let kiosk = try WlrootsKioskTests.builtKiosk()
        let runtime = try temporaryDirectory("seatkit-wlr-launch")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let server = try Background(kiosk, ["--", "/nonexistent/app"],
                                    environment: Self.headless.merging(["XDG_RUNTIME_DIR": runtime]) { $1 },
                                    log: runtime + "/kiosk.log")
        defer { server.stop() }
        #expect(server.exitStatus(timeout: 30) == 1, "\(server.text)")
        #expect(server.text.contains("wlroots-kiosk: cannot start /nonexistent/app: No such file or directory"), "\(server.text)")
        #expect(Self.errors(server.text).isEmpty, "\(server.text)")
    }

    /// SIGTERM: the kiosk ends its loop, tears down silently, ends its app (wev, which
    /// printed the replayed touches) and exits 0. Without --verbose, no per-event line.
    @Test func sigtermEndsTheKioskAndItsAppCleanlyAndTheEventLogNeedsVerbose() throws {
        let kiosk = try WlrootsKioskTests.builtKiosk()
        let runtime = try temporaryDirectory("seatkit-wlr-launch")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let recording = CProgramTests.packageRoot.appendingPathComponent("examples/kiosk-touch.yml").path
        let server = try Background(kiosk, ["--replay", recording, "--", "sh", "-c", "echo \"app pid $$\"; exec stdbuf -oL wev"],
                                    environment: Self.headless.merging(["XDG_RUNTIME_DIR": runtime]) { $1 },
                                    log: runtime + "/kiosk.log")
        defer { server.stop() }
        try #require(server.waitFor(timeout: 30) { $0.contains("replay finished") } != nil, "\(server.text)")
        _ = server.waitFor(timeout: 10) { WlrootsKioskTests.touches(inWev: $0).filter { $0.hasPrefix("up") }.count >= 5 }
        let pidLine = try #require(server.text.components(separatedBy: "\n").first { $0.hasPrefix("app pid ") })
        let pid = try #require(Int32(pidLine.dropFirst("app pid ".count)))
        // wev (the kiosk's app, its output in the kiosk's log) got the touches ...
        #expect(WlrootsKioskTests.touches(inWev: server.text).filter { $0.hasPrefix("down") }.count == 5, "\(server.text)")
        // ... and the kiosk printed no line per event.
        #expect(!server.text.contains("deliver "), "\(server.text)")

        server.terminate()
        let status = server.exitStatus(timeout: 30)
        #expect(status == 0, "\(server.text)")
        #expect(server.text.contains("ending on Terminated"), "\(server.text)")
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "the app ended with the kiosk")
        #expect(Self.errors(server.text).isEmpty, "\(server.text)")
    }

    /// wlr-data-control: wl-copy and wl-paste (wl-clipboard) reach the clipboard without a
    /// surface of their own (without the protocol, wl-paste maps a window to get keyboard
    /// focus, which in a kiosk would replace the app).
    @Test func wlClipboardCopiesAndPastesThroughDataControlWithoutAWindow() throws {
        let kiosk = try WlrootsKioskTests.builtKiosk()
        let runtime = try temporaryDirectory("seatkit-wlr-launch")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let server = try Background(kiosk, ["--", "sh", "-c", "wl-copy 'from the kiosk'; echo \"pasted: $(timeout 10 wl-paste)\""],
                                    environment: Self.headless.merging(["XDG_RUNTIME_DIR": runtime]) { $1 },
                                    log: runtime + "/kiosk.log")
        defer { server.stop() }
        #expect(server.exitStatus(timeout: 30) == 0, "\(server.text)")
        #expect(server.text.contains("pasted: from the kiosk\n"), "\(server.text)")
        #expect(!server.text.contains("mapped "), "no window was needed:\n\(server.text)")
    }

    @Test func helpVersionAndBadOptionsAreAnsweredWithoutStarting() throws {
        let kiosk = try WlrootsKioskTests.builtKiosk()
        let help = try run(kiosk, ["--help"], environment: [:])
        #expect(help.status == 0 && help.output.hasPrefix("usage: wlroots-kiosk [options] [-- APP [ARGS...]]"), "\(help.output)")
        #expect(help.output.contains("--verbose") && help.output.contains("--long-press kiosk|app") && help.output.contains("--outputs last|extend"))
        let version = try run(kiosk, ["--version"], environment: [:])
        #expect(version.status == 0 && version.output.hasPrefix("wlroots-kiosk 0.1.0 (SeatKit "), "\(version.output)")
        #expect(version.output.contains("wlroots 0.15"))
        let refused: [([String], String)] = [
            (["--bogus"], "unknown option --bogus"),
            (["--size", "12"], "--size: '12' is not WIDTHxHEIGHT"),
            (["--blank-after", "soon"], "--blank-after: 'soon' is not a number"),
            (["--long-press", "both"], "--long-press: 'both' is neither kiosk nor app"),
            (["--blank-after"], "--blank-after needs a value"),
            (["--outputs", "all"], "--outputs: 'all' is neither last nor extend"),
            (["--transform", "HDMI-A-1=45"], "--transform: 'HDMI-A-1=45' is not 0, 90, 180, 270, flipped"),
            (["--scale", "0.5"], "--scale: '0.5' is not a scale from 1 to 4"),
            (["--cursor", "hidden"], "--cursor: 'hidden' is not auto, never or always"),
            (["foot"], "unexpected argument 'foot': put the app after --"),
        ]
        for (arguments, reason) in refused {
            let result = try run(kiosk, arguments, environment: [:])
            #expect(result.status == 2, "\(arguments): \(result.output)")
            #expect(result.output.hasPrefix("wlroots-kiosk: " + reason), "\(arguments): \(result.output)")
            #expect(result.output.filter { $0 == "\n" }.count == 1, "one line: \(result.output)")
        }
    }

    /// foot binds no wl_touch: a tap is an emulated left button. A long press must be a right
    /// click only: foot's own log of what it received shows BTN_RIGHT pressed and released
    /// and no BTN_LEFT before it (issue 24: 272 pressed and released, then 273), then the
    /// tap after it as BTN_LEFT.
    @Test func aLongPressInFootIsARightClickWithNoLeftClickFirst() throws {
        let kiosk = try WlrootsKioskTests.builtKiosk()
        let runtime = try temporaryDirectory("seatkit-wlr-launch")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        var s = FrameScript(startingAt: 0)
        s.time = 1_000_000
        WlrootsKioskBehaviourTests.press(&s, 320, 180, id: 1, hold: 1_000_000, after: 500_000)  // long
        WlrootsKioskBehaviourTests.press(&s, 640, 360, id: 2, hold: 60_000)                     // a tap
        let recording = runtime + "/long-press.yml"
        try WlrootsKioskBehaviourTests.write(s, to: recording)
        let server = try Background(kiosk, ["--replay", recording, "--size", "1280x720", "--",
                                            "env", "WAYLAND_DEBUG=1", "foot", "--override=font=monospace:size=10", "sh", "-c", "sleep 60"],
                                    environment: Self.headless.merging(["XDG_RUNTIME_DIR": runtime, "HOME": runtime]) { $1 },
                                    log: runtime + "/kiosk.log")
        defer { server.stop() }
        try #require(server.waitFor(timeout: 30) { $0.contains("replay finished") } != nil, "\(server.text.suffix(3000))")
        // foot's log: wl_pointer.button(serial, time, BUTTON, STATE), as "BUTTON STATE".
        func buttons(_ text: String) -> [String] {
            text.components(separatedBy: "\n").filter { $0.contains("wl_pointer@") && $0.contains(".button(") && !$0.contains("->") }
                .map { $0.split(separator: ",").suffix(2).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " )")) }.joined(separator: " ") }
        }
        _ = server.waitFor(timeout: 10) { buttons($0).count >= 4 }
        #expect(buttons(server.text) == ["273 1", "273 0", "272 1", "272 0"], "\(server.text.suffix(4000))")
        #expect(server.text.contains("secondary click at 320,180"))
    }
}
