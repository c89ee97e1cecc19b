import Foundation
import Testing

/// The wlroots kiosk off the headless backend, as close to a panel as this machine gets:
/// wlroots' x11 backend inside Xvfb, keys and mouse from xdotool (XTEST, so the X server
/// sends the kiosk's windows real input events), wev as the app. What a new user saw before
/// (issue 24): wev got keyboard focus but no keymap and crashed on the first key; the
/// pointer stayed at 0,0; closing an output's window left the kiosk writing through the
/// freed output.
@Suite(.serialized) struct WlrootsKioskX11Tests {
    /// Processes started from a test inherit its thread's signal mask, SIGTERM blocked, so
    /// `Background.stop` can only end them with SIGKILL: Xvfb would leave its lock and
    /// socket behind, valgrind would write no summary. This execs the command with nothing
    /// blocked; `fd3`, if not empty, is a file opened as descriptor 3 (Xvfb's -displayfd).
    static func unblocked(fd3: String = "") -> [String] {
        ["/usr/bin/python3", "-c", """
         import os, signal, sys
         signal.pthread_sigmask(signal.SIG_SETMASK, [])
         if sys.argv[1]:
             fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
             if fd != 3:
                 os.dup2(fd, 3)
             os.set_inheritable(3, True)
         os.execv(sys.argv[2], sys.argv[2:])
         """, fd3]
    }

    /// An Xvfb server on a display number it finds free itself (-displayfd: written once it
    /// accepts connections), with -noreset so that the atoms interned before the kiosk
    /// starts (WM_PROTOCOLS, WM_DELETE_WINDOW: a fresh server without a window manager has
    /// none, and wlroots' x11 backend only looks them up) outlive the helper that interned them.
    final class Xvfb {
        let display: String
        private let server: Background

        init(runtime: String) throws {
            let displayFile = runtime + "/xvfb-display"
            let server = try Background(WlrootsKioskX11Tests.unblocked(fd3: displayFile)[0],
                                        Array(WlrootsKioskX11Tests.unblocked(fd3: displayFile).dropFirst())
                                            + ["/usr/bin/Xvfb", "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"],
                                        environment: [:], log: runtime + "/xvfb.log")
            let deadline = Date().addingTimeInterval(30)
            var number: Int?
            while Date() < deadline && server.isRunning && number == nil {
                let text = (try? String(contentsOfFile: displayFile, encoding: .utf8)) ?? ""
                if text.hasSuffix("\n") { number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) }
                if number == nil { usleep(50_000) }
            }
            guard let number else {
                server.stop()
                throw XvfbDidNotStart(reason: "Xvfb did not start:\n\(server.text)")
            }
            let atoms = try? run("/usr/bin/python3", ["-c", Self.x11Helper, "atoms"], environment: ["DISPLAY": ":\(number)"])
            guard atoms?.status == 0 else {
                server.stop()
                throw XvfbDidNotStart(reason: "could not intern atoms: \(atoms?.output ?? "")")
            }
            self.display = ":\(number)"
            self.server = server
        }

        struct XvfbDidNotStart: Error { var reason: String }

        func stop() { server.stop() }

        /// Runs xdotool on this display; its output.
        @discardableResult
        func xdotool(_ arguments: [String]) throws -> String {
            let result = try run("/usr/bin/xdotool", arguments, environment: ["DISPLAY": display])
            try #require(result.status == 0, "xdotool \(arguments): \(result.output)")
            return result.output
        }

        /// The X window wlroots shows output `name` in ("wlroots - X11-1"), once it exists.
        func window(ofOutput name: String, timeout: Double = 30) throws -> String {
            let deadline = Date().addingTimeInterval(timeout)
            repeat {
                let tree = try run("/usr/bin/xwininfo", ["-root", "-children"], environment: ["DISPLAY": display])
                if let line = tree.output.split(separator: "\n").first(where: { $0.contains("\"wlroots - \(name)\"") }),
                   let id = line.split(separator: " ").first(where: { $0.hasPrefix("0x") }) {
                    return String(id)
                }
                usleep(100_000)
            } while Date() < deadline
            throw XvfbDidNotStart(reason: "no window for output \(name)")
        }

        /// What a window manager's close button does: WM_DELETE_WINDOW to the window.
        func close(window: String) throws {
            let result = try run("/usr/bin/python3", ["-c", Self.x11Helper, "close", window], environment: ["DISPLAY": display])
            try #require(result.status == 0, "could not close \(window): \(result.output)")
        }

        /// Xlib through ctypes (Debian's python3 has no Xlib module): `atoms` interns what
        /// a window manager would have; `close WINDOW` sends it WM_DELETE_WINDOW.
        static let x11Helper = #"""
        import ctypes, sys
        x = ctypes.CDLL("libX11.so.6")
        x.XOpenDisplay.restype = ctypes.c_void_p
        x.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x.XInternAtom.restype = ctypes.c_ulong
        x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        class ClientMessage(ctypes.Structure):
            _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                        ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                        ("format", ctypes.c_int), ("data", ctypes.c_long * 5)]
        class XEvent(ctypes.Union):
            _fields_ = [("xclient", ClientMessage), ("pad", ctypes.c_long * 24)]
        x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.POINTER(XEvent)]
        x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        x.XCloseDisplay.argtypes = [ctypes.c_void_p]
        d = x.XOpenDisplay(None)
        if not d:
            sys.exit("cannot open the display")
        atoms = {n: x.XInternAtom(d, n.encode(), 0) for n in ("WM_PROTOCOLS", "WM_DELETE_WINDOW", "_NET_WM_NAME", "UTF8_STRING")}
        if sys.argv[1] == "close":
            e = XEvent()
            e.xclient.type = 33  # ClientMessage
            e.xclient.window = int(sys.argv[2], 0)
            e.xclient.message_type = atoms["WM_PROTOCOLS"]
            e.xclient.format = 32
            e.xclient.data[0] = atoms["WM_DELETE_WINDOW"]
            x.XSendEvent(d, e.xclient.window, 0, 0, ctypes.byref(e))
        x.XSync(d, 0)
        x.XCloseDisplay(d)
        """#
    }

    /// The kiosk on wlroots' x11 backend on `x`, and wev as its app once it has keyboard
    /// focus. `command`: what runs the kiosk (valgrind and its options before it), and the
    /// kiosk's options after.
    static func start(_ runtime: String, _ x: Xvfb, outputs: Int = 1, prefix: [String] = [], options: [String] = [],
                      extra: [String: String] = [:], timeout: Double = 30) throws -> (kiosk: Background, wev: Background) {
        let (server, socket) = try startKiosk(runtime, x, outputs: outputs, prefix: prefix, options: options, extra: extra,
                                              timeout: timeout)
        let wev = try Background("/usr/bin/stdbuf", ["-oL", "/usr/bin/wev"],
                                 environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket],
                                 log: runtime + "/wev.log")
        guard wev.waitFor(timeout: timeout, { $0.contains("wl_keyboard] enter:") }) != nil else {
            wev.stop()
            server.stop()
            throw WlrootsKioskBehaviourTests.KioskDidNotStart(log: "wev got no keyboard focus:\n\(wev.text)\nkiosk:\n\(server.text)")
        }
        return (server, wev)
    }

    /// The kiosk alone (log `name`.log); its Wayland socket.
    static func startKiosk(_ runtime: String, _ x: Xvfb, outputs: Int = 1, prefix: [String] = [], options: [String] = [],
                           extra: [String: String] = [:], timeout: Double = 30,
                           name: String = "kiosk") throws -> (kiosk: Background, socket: String) {
        let kiosk = try WlrootsKioskTests.builtKiosk()
        let command = prefix.isEmpty ? kiosk : prefix[0]
        let arguments = prefix.isEmpty ? ["--verbose"] + options : Array(prefix.dropFirst()) + [kiosk, "--verbose"] + options
        let server = try Background(command, arguments,
                                    environment: ["XDG_RUNTIME_DIR": runtime, "DISPLAY": x.display, "WLR_BACKENDS": "x11",
                                                  "WLR_RENDERER": "pixman", "WLR_X11_OUTPUTS": "\(outputs)"].merging(extra) { $1 },
                                    log: runtime + "/\(name).log")
        guard let socket = server.waitFor(timeout: timeout, { $0.contains("listening on ") })
            .flatMap({ text in text.split(separator: "\n").first { $0.hasPrefix("listening on ") } })
            .map({ String($0.dropFirst("listening on ".count)) }) else {
            server.stop()
            throw WlrootsKioskBehaviourTests.KioskDidNotStart(log: server.text)
        }
        return (server, socket)
    }

    /// wev's wl_keyboard key events as "KEYCODE STATE SYM UTF8" (the line and the one after it).
    static func keys(inWev text: String) -> [String] {
        let lines = text.components(separatedBy: "\n")
        return lines.indices.compactMap { i -> String? in
            guard lines[i].contains("wl_keyboard] key:"), i + 1 < lines.count else { return nil }
            let head = lines[i]
            guard let keyRange = head.range(of: "key: ", options: .backwards) else { return nil }
            let fields = head[keyRange.upperBound...].components(separatedBy: "; state: ")
            guard fields.count == 2 else { return nil }
            let state = fields[1].hasPrefix("1") ? "pressed" : "released"
            let symLine = lines[i + 1].trimmingCharacters(in: .whitespaces)
            let sym = symLine.hasPrefix("sym: ") ? String(symLine.dropFirst(5).prefix { $0 != " " }) : "?"
            let utf8 = symLine.range(of: "utf8: ").map { String(symLine[$0.upperBound...]) } ?? "?"
            return "\(fields[0]) \(state) \(sym) \(utf8)"
        }
    }

    @Test func keysTypedIntoTheX11WindowReachWevWithSeatKitsKeymap() throws {
        let runtime = try temporaryDirectory("seatkit-wlr-x11")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let x = try Xvfb(runtime: runtime)
        defer { x.stop() }
        let (server, wev) = try Self.start(runtime, x)
        defer { server.stop(); wev.stop() }
        #expect(wev.text.contains("wl_keyboard] keymap: format: 1 (xkb v1)"),
                "wlroots sent the seat keyboard's keymap, SeatKit's:\n\(wev.text)")

        let window = try x.window(ofOutput: "X11-1")
        // XTEST input goes to the X focus: the kiosk's window (no window manager here).
        try x.xdotool(["windowfocus", "--sync", window, "type", "--delay", "40", "Hi!"])
        let typed = wev.waitFor(timeout: 15) { Self.keys(inWev: $0).filter { $0.contains("released") }.count >= 5 }
        try #require(typed != nil, "wev did not get the keys:\nwev:\n\(wev.text)\nkiosk:\n\(server.text)")
        let keys = Self.keys(inWev: wev.text)
        // Shift + h, i, shift + 1: evdev keycode + 8, the keysym and text from SeatKit's
        // keymap with the modifiers the bridge sent after each key.
        let presses = keys.filter { $0.contains(" pressed ") }
        #expect(presses == ["50 pressed Shift_L ''", "43 pressed H 'H'", "31 pressed i 'i'",
                            "50 pressed Shift_L ''", "10 pressed exclam '!'"], "\(keys)")
        #expect(keys.filter { $0.contains(" released ") }.count == presses.count, "every key released: \(keys)")
        #expect(server.text.contains("deliver key 35 pressed"), "the kiosk routed KEY_H through SeatKit:\n\(server.text)")
        #expect(!wev.text.contains("Segmentation"), "wev:\n\(wev.text)")
    }

    @Test func absolutePointerMotionLandsWhereTheXPointerIs() throws {
        let runtime = try temporaryDirectory("seatkit-wlr-x11")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let x = try Xvfb(runtime: runtime)
        defer { x.stop() }
        let (server, wev) = try Self.start(runtime, x)
        defer { server.stop(); wev.stop() }
        let window = try x.window(ofOutput: "X11-1")

        // wlroots' x11 pointer reports motion_absolute: 0...1 of the output's window.
        func motions(_ text: String) -> [String] {
            text.components(separatedBy: "\n").filter { $0.contains("wl_pointer] motion:") }.compactMap { line in
                line.range(of: "x, y: ").map { String(line[$0.upperBound...]) }
            }
        }
        for (px, py) in [(300, 200), (640, 360), (1023, 767)] {
            try x.xdotool(["mousemove", "--window", window, "\(px)", "\(py)"])
            let point = String(format: "%.6f, %.6f", Double(px), Double(py))
            let landed = wev.waitFor(timeout: 15) { motions($0).contains(point) }
            #expect(landed != nil, "no motion to \(point) in wev:\n\(motions(wev.text))\nkiosk:\n\(server.text.suffix(2000))")
        }
        #expect(server.text.contains("deliver pointer motion 640.00 360.00"))
    }

    /// Nested: a second kiosk on wlroots' wayland backend, a client of the first (on x11),
    /// with wev as its app. Keys and absolute motion made in the X window go through the
    /// outer kiosk to the inner one's wayland keyboard and pointer, whose keymap is set by
    /// the same bridge call.
    @Test func theKioskNestedOnTheWaylandBackendGivesItsAppTheKeymapKeysAndPointer() throws {
        let runtime = try temporaryDirectory("seatkit-wlr-x11")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let x = try Xvfb(runtime: runtime)
        defer { x.stop() }
        let (outer, outerSocket) = try Self.startKiosk(runtime, x, name: "outer")
        defer { outer.stop() }
        let (inner, innerSocket) = try Self.startKiosk(runtime, x, extra: ["WLR_BACKENDS": "wayland", "WAYLAND_DISPLAY": outerSocket],
                                                       name: "inner")
        defer { inner.stop() }
        let wev = try Background("/usr/bin/stdbuf", ["-oL", "/usr/bin/wev"],
                                 environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": innerSocket],
                                 log: runtime + "/wev.log")
        defer { wev.stop() }
        try #require(wev.waitFor(timeout: 30) { $0.contains("wl_keyboard] enter:") } != nil,
                     "wev:\n\(wev.text)\ninner:\n\(inner.text)\nouter:\n\(outer.text)")
        #expect(wev.text.contains("wl_keyboard] keymap: format: 1 (xkb v1)"), "wev:\n\(wev.text)")
        #expect(outer.text.contains("mapped wlroots"), "the inner kiosk is the outer one's app:\n\(outer.text)")

        let window = try x.window(ofOutput: "X11-1")
        try x.xdotool(["windowfocus", "--sync", window, "type", "--delay", "40", "Hi"])
        let typed = wev.waitFor(timeout: 15) { Self.keys(inWev: $0).filter { $0.contains(" released ") }.count >= 3 }
        try #require(typed != nil, "wev:\n\(wev.text)\ninner:\n\(inner.text)")
        let presses = Self.keys(inWev: wev.text).filter { $0.contains(" pressed ") }
        #expect(presses == ["50 pressed Shift_L ''", "43 pressed H 'H'", "31 pressed i 'i'"], "\(presses)")

        // The inner kiosk's window fills the outer one's output from its corner: X pointer
        // points are the inner output's points.
        for (px, py) in [(200, 150), (500, 400)] {
            try x.xdotool(["mousemove", "--window", window, "\(px)", "\(py)"])
            let point = String(format: "x, y: %.6f, %.6f", Double(px), Double(py))
            let landed = wev.waitFor(timeout: 15) { $0.components(separatedBy: "\n").contains { $0.contains("wl_pointer] motion:") && $0.contains(point) } }
            #expect(landed != nil, "no motion to \(point) in wev:\n\(wev.text.suffix(3000))\ninner:\n\(inner.text.suffix(2000))")
        }
    }

    /// WLR_X11_OUTPUTS=2, --dim-after and --blank-after: the apps are on the last output
    /// (X11-2, cage's -m last); the screen dims, then blanks, its window is closed (wlroots destroys the output), and
    /// the kiosk moves to the output left: wev is configured again and keeps its keyboard,
    /// a key wakes the screen (which used to power the freed output on: valgrind's invalid
    /// reads and writes from screen_power), and the idle timer blanks the new screen later.
    /// valgrind 3.19 cannot read the DWARF 5 of Swift 6.3 libraries: libseatkit.so.0 (and
    /// libseatkit-replay.so.0, which the kiosk links for --replay) are loaded from copies
    /// without debug info. What is checked is what dangles (invalid reads, writes and frees):
    /// memcheck's uninitialised-value reports are off here, as optimized Swift gives false ones
    /// on event enums (`ValgrindLog.uninitialisedReportsBesideEnumTags` says why; the C
    /// replay's test keeps them on).
    @Test func closingTheScreensWindowMovesTheAppToTheOtherOutputWithNothingDanglingUnderValgrind() throws {
        let runtime = try temporaryDirectory("seatkit-wlr-x11")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let libraries = try Self.librariesWithoutDebugInfo(in: runtime)
        let x = try Xvfb(runtime: runtime)
        defer { x.stop() }
        let valgrindLog = runtime + "/valgrind.log"
        // SIGTERM unblocked, so that valgrind writes its summary (see `unblocked`).
        let (server, wev) = try Self.start(runtime, x, outputs: 2,
                                           prefix: Self.unblocked() + ["/usr/bin/valgrind", "--leak-check=no", "--undef-value-errors=no",
                                                                       "--log-file=" + valgrindLog],
                                           options: ["--dim-after", "700", "--blank-after", "1500"], extra: ["LD_LIBRARY_PATH": libraries],
                                           timeout: 120)
        defer { server.stop(); wev.stop() }
        #expect(server.text.components(separatedBy: "\n").filter { $0.hasPrefix("screen X11-") }.last == "screen X11-2 1024x768",
                 "the last output is the screen:\n\(server.text)")
        try #require(server.waitFor(timeout: 60) { $0.contains("screen blanked") } != nil, "kiosk:\n\(server.text)")
        // --dim-after on the x11 backend: dimmed first (idle.c's overlay, under valgrind too).
        let steps = server.text.components(separatedBy: "\n")
        #expect(steps.firstIndex(of: "screen dimmed").map { $0 < steps.firstIndex(of: "screen blanked")! } == true, "\(server.text)")
        let configures = wev.text.components(separatedBy: "configure: width: 1024; height: 768").count - 1
        try x.close(window: try x.window(ofOutput: "X11-2"))
        try #require(server.waitFor(timeout: 30) { $0.contains("output X11-2 gone") } != nil, "kiosk:\n\(server.text)")
        // The first output was the screen until the second came; it is again.
        try #require(server.waitFor(timeout: 30) { $0.components(separatedBy: "screen X11-1 1024x768\n").count - 1 == 2 } != nil,
                     "the remaining output is the screen:\n\(server.text)")
        // wev was configured again for its new screen.
        #expect(wev.waitFor(timeout: 15) { $0.components(separatedBy: "configure: width: 1024; height: 768").count - 1 > configures } != nil,
                "wev:\n\(wev.text.suffix(2000))")
        // A key into the remaining output's window wakes the screen, and reaches no app.
        try x.xdotool(["windowfocus", "--sync", try x.window(ofOutput: "X11-1"), "key", "a"])
        try #require(server.waitFor(timeout: 30) { $0.contains("screen woke") } != nil, "kiosk:\n\(server.text)")
        // The idle timer works on the new screen: it blanks again after 1.5 s.
        #expect(server.waitFor(timeout: 30) { $0.components(separatedBy: "screen blanked").count > 2 } != nil,
                "kiosk:\n\(server.text)")
        wev.stop()
        server.terminate()
        let summary = try #require(Self.waitForFile(valgrindLog, timeout: 60) { $0.contains("ERROR SUMMARY:") },
                                   "no valgrind summary:\n\((try? String(contentsOfFile: valgrindLog, encoding: .utf8)) ?? "")")
        #expect(summary.contains("ERROR SUMMARY: 0 errors from 0 contexts"), "\(summary.suffix(6000))")
        #expect(!summary.contains("Invalid read") && !summary.contains("Invalid write"))
    }

    /// --outputs extend (cage's -m extend) with two 1024x768 outputs: wev is configured to
    /// the box around both (2048x768); the X pointer over the second output's window reaches
    /// wev there (SeatKit routes it to the app's slice on that output, which delivers to the
    /// same wl_surface), at the point of the whole window; when that output goes, wev is
    /// configured to the one left.
    @Test func withOutputsExtendTheAppSpansBothOutputsAndThePointerReachesItOnTheSecond() throws {
        let runtime = try temporaryDirectory("seatkit-wlr-x11")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let x = try Xvfb(runtime: runtime)
        defer { x.stop() }
        let (server, wev) = try Self.start(runtime, x, outputs: 2, options: ["--outputs", "extend"])
        defer { server.stop(); wev.stop() }
        #expect(wev.waitFor(timeout: 15) { $0.contains("configure: width: 2048; height: 768") } != nil,
                "wev:\n\(wev.text.suffix(2000))\nkiosk:\n\(server.text)")
        #expect(server.text.contains("screen extended 2048x768 over 2 outputs"), "\(server.text)")
        // wev's pointer enter and motion points (wlroots sends no motion to the point the
        // enter already gave).
        func points(_ text: String) -> [String] {
            text.components(separatedBy: "\n").filter { $0.contains("wl_pointer] motion:") || $0.contains("wl_pointer] enter:") }
                .compactMap { line in line.range(of: "x, y: ").map { String(line[$0.upperBound...]) } }
        }
        // Without a window manager both output windows sit at the X screen's origin, X11-2
        // on top: xdotool reaches X11-2's.
        let window = try x.window(ofOutput: "X11-2")
        for (px, py, expected) in [(100, 200, "1124.000000, 200.000000"), (500, 300, "1524.000000, 300.000000")] {
            try x.xdotool(["mousemove", "--window", window, "\(px)", "\(py)"])
            #expect(wev.waitFor(timeout: 15) { points($0).contains(expected) } != nil,
                    "no pointer at \(expected) in wev:\n\(points(wev.text))\nkiosk:\n\(server.text.suffix(2000))")
        }
        try x.close(window: try x.window(ofOutput: "X11-2"))
        #expect(server.waitFor(timeout: 30) { $0.contains("screen extended 1024x768 over 1 outputs") } != nil, "\(server.text)")
        #expect(wev.waitFor(timeout: 15) { $0.contains("configure: width: 1024; height: 768") } != nil,
                "wev:\n\(wev.text.suffix(2000))")
    }

    /// libseatkit.so.0 and libseatkit-replay.so.0 (which the kiosk links for --replay) of the
    /// installed prefix, copied without debug info into `runtime`/lib, for valgrind 3.19,
    /// which cannot read Swift 6.3's DWARF 5; that folder, for LD_LIBRARY_PATH.
    static func librariesWithoutDebugInfo(in runtime: String) throws -> String {
        let prefix = try CProgramTests.installedPrefix()
        let libraries = runtime + "/lib"
        try FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: true)
        for library in ["libseatkit.so.0", "libseatkit-replay.so.0"] {
            let strip = try run("/usr/bin/strip", ["--strip-debug", "-o", libraries + "/" + library, prefix + "/lib/" + library])
            try #require(strip.status == 0, "strip: \(strip.output)")
        }
        return libraries
    }

    /// Polls a file until `condition` holds on its text or `timeout` seconds pass.
    static func waitForFile(_ path: String, timeout: Double, _ condition: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), condition(text) { return text }
            usleep(100_000)
        } while Date() < deadline
        return nil
    }
}
