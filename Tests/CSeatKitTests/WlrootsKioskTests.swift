import Foundation
import SeatKitReplay
import Testing

/// examples/wlroots-kiosk, built with meson against the installed C API, running headless
/// (wlroots' headless backend, pixman renderer) with `wev` as its app: a replayed
/// `libinput record` file is routed by SeatKit and delivered through the wlr_seat bridge, and
/// wev prints exactly the touches the bridge handed to wlroots, at the same surface points.
@Suite(.serialized) struct WlrootsKioskTests {
    static let kioskSource = CProgramTests.packageRoot.appendingPathComponent("examples/wlroots-kiosk")

    /// Builds the kiosk once: meson setup + ninja against the suite's installed prefix. A
    /// static let: suites that run in parallel (the behaviour and client tests) share one
    /// build instead of racing meson in the same directory.
    private static let build: Result<String, any Error> = Result { try buildKiosk() }

    static func builtKiosk() throws -> String { try build.get() }

    private static func buildKiosk() throws -> String {
        let prefix = try CProgramTests.installedPrefix()
        let build = prefix + "/kiosk-build"
        let environment = ["PKG_CONFIG_PATH": prefix + "/lib/pkgconfig"]
        let setup = try run("/usr/bin/meson", ["setup", build, kioskSource.path], environment: environment)
        try #require(setup.status == 0, "meson setup failed:\n\(setup.output)")
        let compile = try run("/usr/bin/ninja", ["-C", build], environment: environment)
        try #require(compile.status == 0, "ninja failed:\n\(compile.output)")
        return build + "/wlroots-kiosk"
    }

    @Test func wevReceivesExactlyTheTouchesSeatKitRoutedFromAReplayedRecording() throws {
        let kiosk = try Self.builtKiosk()
        let runtime = try temporaryDirectory("seatkit-wlr-kiosk")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let recording = CProgramTests.packageRoot.appendingPathComponent("examples/kiosk-touch.yml").path
        let environment = ["XDG_RUNTIME_DIR": runtime, "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman",
                           "WLR_LIBINPUT_NO_DEVICES": "1"]
        let server = try Background(kiosk, ["--verbose", "--replay", recording, "--size", "1280x720"], environment: environment,
                                    log: runtime + "/kiosk.log")
        defer { server.stop() }
        let socket = try #require(server.waitFor(timeout: 30) { $0.contains("listening on ") }
            .flatMap { text in text.split(separator: "\n").first { $0.hasPrefix("listening on ") } }
            .map { String($0.dropFirst("listening on ".count)) }, "the kiosk did not start:\n\(server.text)")

        let wev = try Background("/usr/bin/stdbuf", ["-oL", "/usr/bin/wev"],
                                 environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket],
                                 log: runtime + "/wev.log")
        defer { wev.stop() }
        try #require(server.waitFor(timeout: 30) { $0.contains("replay finished") } != nil,
                     "the replay did not finish:\n\(server.text)")

        // What the bridge handed to wlroots, and what wev printed, as "down 0 1168.12 570.06".
        let delivered = server.text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("deliver touch ") else { return nil }
            return String(line.dropFirst("deliver touch ".count))
        }
        #expect(delivered.count > 10)
        #expect(delivered.filter { $0.hasPrefix("down") }.count == 5)
        _ = wev.waitFor(timeout: 10) { Self.touches(inWev: $0).count >= delivered.count }
        let received = Self.touches(inWev: wev.text)
        #expect(received == delivered, "wev:\n\(wev.text)\nkiosk:\n\(server.text)")
        // Every delivered down came from SeatKit's routing: the app is the only surface.
        #expect(server.text.contains("mapped wev"))
    }

    /// foot binds no wl_touch: the bridge turns each touch that SeatKit routes to it into
    /// a left-button press and release of an emulated pointer, and foot itself (its
    /// WAYLAND_DEBUG log of what it received) sees exactly those, and no touch.
    @Test func footWithoutWlTouchGetsEveryRoutedTapAsALeftButton() throws {
        let kiosk = try Self.builtKiosk()
        let runtime = try temporaryDirectory("seatkit-wlr-kiosk")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let recording = CProgramTests.packageRoot.appendingPathComponent("examples/kiosk-touch.yml").path
        let server = try Background(kiosk, ["--verbose", "--replay", recording, "--size", "1280x720"],
                                    environment: ["XDG_RUNTIME_DIR": runtime, "WLR_BACKENDS": "headless",
                                                  "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"],
                                    log: runtime + "/kiosk.log")
        defer { server.stop() }
        let socket = try #require(server.waitFor(timeout: 30) { $0.contains("listening on ") }
            .flatMap { text in text.split(separator: "\n").first { $0.hasPrefix("listening on ") } }
            .map { String($0.dropFirst("listening on ".count)) }, "the kiosk did not start:\n\(server.text)")
        let foot = try Background("/usr/bin/foot", ["--override=font=monospace:size=10", "sh", "-c", "sleep 60"],
                                  environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket,
                                                "WAYLAND_DEBUG": "1", "HOME": runtime],
                                  log: runtime + "/foot.log")
        defer { foot.stop() }
        try #require(server.waitFor(timeout: 30) { $0.contains("replay finished") } != nil,
                     "the replay did not finish:\n\(server.text)\nfoot:\n\(foot.text.suffix(2000))")
        let emulated = server.text.components(separatedBy: "\n").filter { $0.hasPrefix("deliver emulated button") }
        #expect(emulated.filter { $0.contains("down") }.count == 4, "one per touch sequence's first finger: \(emulated)")
        let presses = emulated.filter { $0.contains("down") }.count
        // foot's own log of what it received: wl_pointer.button(serial, time, 272, state).
        func buttons(_ text: String, state: Int) -> Int {
            text.components(separatedBy: "\n").filter {
                $0.contains("wl_pointer@") && $0.contains(".button(") && $0.hasSuffix(", 272, \(state))")
            }.count
        }
        _ = foot.waitFor(timeout: 10) { buttons($0, state: 0) >= presses }
        #expect(buttons(foot.text, state: 1) == presses, "foot:\n\(foot.text.suffix(3000))")
        #expect(buttons(foot.text, state: 0) == presses)
        #expect(!foot.text.contains("wl_touch@"), "foot binds no wl_touch, so it gets no touch event")
        #expect(server.text.components(separatedBy: "\n").filter { $0.hasPrefix("deliver touch ") }.isEmpty)
    }

    /// `--libinput`: SeatKit owns libinput (seatkit_libinput_create_udev on the display's event
    /// loop) for a keyboard on an umockdev udev seat; a key the device reports is routed to
    /// the app's SeatKit surface (the first responder) and reaches wev through
    /// wlr_seat_keyboard_notify_key, with the keymap SeatKit and wlroots share.
    @Test func aKeyFromLibinputHandedToSeatKitReachesWevThroughTheBridge() throws {
        let kiosk = try Self.builtKiosk()
        let devices = try EmulatedInputDevices([SyntheticDevice.keyboard()])
        let runtime = try temporaryDirectory("seatkit-wlr-kiosk")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        var environment = try devices.environment()
        environment.merge(["XDG_RUNTIME_DIR": runtime, "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman",
                           "WLR_LIBINPUT_NO_DEVICES": "1"]) { $1 }
        let server = try Background(kiosk, ["--verbose", "--libinput", "--seat", "seat0"], environment: environment,
                                    log: runtime + "/kiosk.log")
        defer { server.stop() }
        let socket = try #require(server.waitFor(timeout: 30) { $0.contains("listening on ") }
            .flatMap { text in text.split(separator: "\n").first { $0.hasPrefix("listening on ") } }
            .map { String($0.dropFirst("listening on ".count)) }, "the kiosk did not start:\n\(server.text)")
        let wev = try Background("/usr/bin/stdbuf", ["-oL", "/usr/bin/wev"],
                                 environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket],
                                 log: runtime + "/wev.log")
        defer { wev.stop() }
        try #require(wev.waitFor(timeout: 30) { $0.contains("wl_keyboard] enter:") } != nil,
                     "wev got no keyboard focus:\nwev:\n\(wev.text)\nkiosk:\n\(server.text)")
        try devices.write([EvdevEvent(type: 1, code: 48, value: 1)], toDevice: 0)  // KEY_B down
        try devices.write([EvdevEvent(type: 1, code: 48, value: 0)], toDevice: 0)
        let text = wev.waitFor(timeout: 15) { $0.components(separatedBy: "wl_keyboard] key:").count - 1 >= 2 }
        try #require(text != nil, "wev did not get the key:\nwev:\n\(wev.text)\nkiosk:\n\(server.text)")
        let keys = wev.text.components(separatedBy: "\n").filter { $0.contains("wl_keyboard] key:") }
        #expect(keys.count == 2)
        #expect(keys.first?.contains("key: 56; state: 1 (pressed)") == true, "\(keys)")
        #expect(keys.last?.contains("key: 56; state: 0 (released)") == true, "\(keys)")
        #expect(wev.text.contains("sym: b"), "the keysym comes from the keymap wlroots sent, SeatKit's")
        #expect(server.text.contains("deliver key 48 pressed") && server.text.contains("deliver key 48 released"))
        // Under --verbose, libinput's own info lines about the device (C API log at SEATKIT_INFO).
        #expect(server.text.contains("[seatkit] libinput: event100 - "), "kiosk:\n\(server.text)")
    }

    /// wev's wl_touch events as "down ID X Y", "motion ID X Y", "up ID" (two decimals).
    static func touches(inWev text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("wl_touch] ") else { return nil }
            let body = line[line.range(of: "wl_touch] ")!.upperBound...]
            func field(_ name: String) -> String? {
                guard let r = body.range(of: name + ": ") else { return nil }
                return String(body[r.upperBound...].prefix { $0 != ";" })
            }
            func point() -> String? {
                guard let xy = field("x, y") else { return nil }
                let parts = xy.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard parts.count == 2 else { return nil }
                return String(format: "%.2f %.2f", parts[0], parts[1])
            }
            if body.hasPrefix("down:"), let id = field("id"), let p = point() { return "down \(id) \(p)" }
            if body.hasPrefix("motion:"), let id = field("id"), let p = point() { return "motion \(id) \(p)" }
            if body.hasPrefix("up:"), let id = field("id") { return "up \(id)" }
            if body.hasPrefix("cancel") { return "cancel" }
            return nil
        }
    }
}

func temporaryDirectory(_ prefix: String) throws -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
    return String(cString: made)
}

/// A process running in the background, its stdout and stderr in a log file.
final class Background {
    private let process = Process()
    private let log: String

    init(_ path: String, _ arguments: [String], environment: [String: String], log: String) throws {
        self.log = log
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = environment
        env["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        process.environment = env
        process.standardOutput = file
        process.standardError = file
        try process.run()
        try file.close()
    }

    var text: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    var isRunning: Bool { process.isRunning }

    /// Sends SIGTERM and returns (a process under valgrind writes its summary first);
    /// `stop()` still reaps it.
    func terminate() {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
    }

    /// Polls the log until `condition` holds or `timeout` seconds pass; the log, or nil.
    func waitFor(timeout: Double, _ condition: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let current = text
            if condition(current) { return current }
            if !process.isRunning { return condition(text) ? text : nil }
            usleep(50_000)
        }
        return nil
    }

    /// Waits up to `timeout` seconds for the process to exit: its exit status (the signal's
    /// number if a signal ended it), or nil if it still runs.
    func exitStatus(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(2)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }
}
