import Foundation
import SeatKitReplay
import Testing

/// examples/tiny-wlroots, a minimal wlroots compositor whose input is all SeatKit's through
/// the installed bridge (libseatkit-wlroots), built with meson from the installed prefix
/// with warnings as errors, with real clients: wev, GTK4 and foot in Xvfb on wlroots' x11
/// backend (keys and mouse from xdotool), and wev nested in the wlroots kiosk on wlroots'
/// wayland backend for touch (the kiosk replays a touchscreen; tiny-wlroots gets real
/// wl_touch events from it, as a wlroots touch device). What the clients printed is checked.
@Suite(.serialized) struct TinyWlrootsTests {
    static let source = CProgramTests.packageRoot.appendingPathComponent("examples/tiny-wlroots")

    private static let build: Result<String, any Error> = Result { try buildTiny() }

    static func builtTiny() throws -> String { try build.get() }

    private static func buildTiny() throws -> String {
        let prefix = try CProgramTests.installedPrefix()
        let build = prefix + "/tiny-build"
        let environment = ["PKG_CONFIG_PATH": prefix + "/lib/pkgconfig"]
        let setup = try run("/usr/bin/meson", ["setup", build, source.path], environment: environment)
        try #require(setup.status == 0, "meson setup failed:\n\(setup.output)")
        let compile = try run("/usr/bin/ninja", ["-C", build], environment: environment)
        try #require(compile.status == 0, "ninja failed (warnings are errors):\n\(compile.output)")
        return build + "/tiny-wlroots"
    }

    /// tiny-wlroots on `environment`'s backend; its socket once it listens.
    static func startTiny(_ runtime: String, _ environment: [String: String], name: String = "tiny") throws -> (Background, String) {
        let server = try Background(try builtTiny(), ["--log-deliveries"],
                                    environment: ["XDG_RUNTIME_DIR": runtime, "WLR_RENDERER": "pixman"].merging(environment) { $1 },
                                    log: runtime + "/\(name).log")
        guard let socket = server.waitFor(timeout: 30, { $0.contains("listening on ") })
            .flatMap({ text in text.split(separator: "\n").first { $0.hasPrefix("listening on ") } })
            .map({ String($0.dropFirst("listening on ".count)) }) else {
            server.stop()
            throw WlrootsKioskBehaviourTests.KioskDidNotStart(log: server.text)
        }
        return (server, socket)
    }

    static func x11(_ x: WlrootsKioskX11Tests.Xvfb) -> [String: String] {
        ["DISPLAY": x.display, "WLR_BACKENDS": "x11", "WLR_X11_OUTPUTS": "1"]
    }

    /// A client's environment on `socket`.
    static func client(_ runtime: String, _ socket: String) -> [String: String] {
        ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket, "HOME": runtime, "LANG": "C.UTF-8",
         "GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1"]
    }

    /// wev's events of one interface ("wl_pointer", "wl_touch") as their names ("enter",
    /// "motion", "frame", ...), in order.
    static func events(_ interface: String, inWev text: String) -> [String] {
        text.components(separatedBy: "\n").compactMap { line in
            guard let r = line.range(of: "\(interface)] ") else { return nil }
            return String(line[r.upperBound...].prefix { $0 != ":" && $0 != " " })
        }
    }

    /// The events between frames: ["enter", "motion"] for "enter motion frame". A frame with
    /// nothing before it is an empty group.
    static func frames(_ events: [String]) -> [[String]] {
        var groups: [[String]] = []
        var current: [String] = []
        for event in events {
            if event == "frame" {
                groups.append(current)
                current = []
            } else {
                current.append(event)
            }
        }
        return groups
    }

    @Test func wevInTinyWlrootsOnX11GetsKeysWithSeatKitsKeymapAndOnePointerFramePerEvent() throws {
        let runtime = try temporaryDirectory("seatkit-tiny")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let x = try WlrootsKioskX11Tests.Xvfb(runtime: runtime)
        defer { x.stop() }
        let (server, socket) = try Self.startTiny(runtime, Self.x11(x))
        defer { server.stop() }
        let wev = try Background("/usr/bin/stdbuf", ["-oL", "/usr/bin/wev"], environment: Self.client(runtime, socket),
                                 log: runtime + "/wev.log")
        defer { wev.stop() }
        try #require(wev.waitFor(timeout: 30) { $0.contains("wl_keyboard] enter:") } != nil,
                     "wev got no keyboard focus:\n\(wev.text)\ntiny:\n\(server.text)")
        #expect(wev.text.contains("wl_keyboard] keymap: format: 1 (xkb v1)"))
        let window = try x.window(ofOutput: "X11-1")

        // The pointer into wev's window (its corner is the output's), a move, a click.
        try x.xdotool(["mousemove", "--window", window, "300", "200"])
        try #require(wev.waitFor(timeout: 15) { $0.contains("wl_pointer] enter:") } != nil, "tiny:\n\(server.text)")
        try x.xdotool(["mousemove", "--window", window, "310", "205"])
        try x.xdotool(["click", "1"])
        let clicked = wev.waitFor(timeout: 15) { Self.frames(Self.events("wl_pointer", inWev: $0)).filter { $0 == ["button"] }.count >= 2 }
        try #require(clicked != nil, "wev:\n\(wev.text)\ntiny:\n\(server.text)")
        let pointer = Self.frames(Self.events("wl_pointer", inWev: wev.text))
        // Each event closed by exactly one frame: the enter by wlroots' own, the motion and
        // each button by the device's frame. No empty frame, no frame sent twice.
        #expect(pointer.first == ["enter"], "\(pointer)")
        #expect(!pointer.contains { $0.isEmpty }, "a frame with nothing in it: \(pointer)")
        #expect(pointer.filter { $0 == ["button"] }.count == 2, "\(pointer)")
        #expect(pointer.contains(["motion"]), "\(pointer)")
        #expect(wev.text.contains("x, y: 310.000000, 205.000000"), "the motion in wev's surface space")

        try x.xdotool(["windowfocus", "--sync", window, "type", "--delay", "40", "Hi!"])
        let typed = wev.waitFor(timeout: 15) { WlrootsKioskX11Tests.keys(inWev: $0).filter { $0.contains("released") }.count >= 5 }
        try #require(typed != nil, "wev:\n\(wev.text)\ntiny:\n\(server.text)")
        let presses = WlrootsKioskX11Tests.keys(inWev: wev.text).filter { $0.contains(" pressed ") }
        #expect(presses == ["50 pressed Shift_L ''", "43 pressed H 'H'", "31 pressed i 'i'",
                            "50 pressed Shift_L ''", "10 pressed exclam '!'"], "keysyms and text from SeatKit's keymap: \(presses)")
        #expect(server.text.contains("deliver key 35 pressed"), "SeatKit routed KEY_H:\n\(server.text)")
    }

    /// ext-idle-notify-v1 from the bridge in a compositor other than the kiosk (one call in
    /// tiny.c): swayidle is told idle after its timeout with no input, and resumed by a key
    /// typed into Xvfb (wlroots' x11 backend, SeatKit's router: the bridge's spy sees it)
    /// before the key is delivered to anyone.
    @Test func swayidleInTinyWlrootsIsToldIdleAndResumedByAKeySeatKitRouted() throws {
        let runtime = try temporaryDirectory("seatkit-tiny")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let x = try WlrootsKioskX11Tests.Xvfb(runtime: runtime)
        defer { x.stop() }
        let (server, socket) = try Self.startTiny(runtime, Self.x11(x))
        defer { server.stop() }
        let swayidle = try Background("/usr/bin/swayidle", ["timeout", "1", "echo idle-1", "resume", "echo resumed-1"],
                                      environment: Self.client(runtime, socket), log: runtime + "/swayidle.log")
        defer { swayidle.stop() }
        try #require(server.waitFor(timeout: 30) { $0.contains("idle notification after 1000 ms: idled") } != nil,
                     "tiny:\n\(server.text)")
        try #require(swayidle.waitFor(timeout: 15) { $0.contains("idle-1") } != nil, "swayidle:\n\(swayidle.text)")
        #expect(!swayidle.text.contains("resumed-1"), "resumed with no input:\n\(swayidle.text)")

        let window = try x.window(ofOutput: "X11-1")
        try x.xdotool(["windowfocus", "--sync", window, "key", "z"])
        try #require(swayidle.waitFor(timeout: 15) { $0.contains("resumed-1") } != nil,
                     "swayidle:\n\(swayidle.text)\ntiny:\n\(server.text)")
        let lines = server.text.components(separatedBy: "\n")
        let resumed = try #require(lines.firstIndex(of: "idle notification after 1000 ms: resumed"), "tiny:\n\(server.text)")
        let delivered = lines.firstIndex { $0.hasPrefix("deliver key 44 pressed") }
        // No client has keyboard focus, so the key may reach no one; if it does, after the resume.
        #expect(delivered.map { resumed < $0 } ?? true, "\(lines)")
    }

    /// A GTK4 window with an entry above a button: typed text reaches the entry (keyboard
    /// focus is SeatKit's first responder), a click reaches the button.
    static let gtkScript = #"""
    import gi
    gi.require_version("Gtk", "4.0")
    from gi.repository import Gtk

    def activate(app):
        win = Gtk.ApplicationWindow(application=app, title="tiny-gtk")
        win.set_default_size(400, 300)
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
        entry = Gtk.Entry()
        entry.connect("changed", lambda e: print("text:" + e.get_text(), flush=True))
        button = Gtk.Button(label="Press")
        button.set_vexpand(True)
        button.connect("clicked", lambda b: print("clicked", flush=True))
        box.append(entry)
        box.append(button)
        win.set_child(box)
        win.present()
        entry.grab_focus()
        print("presented", flush=True)

    app = Gtk.Application(application_id="org.seatkit.TinyWlroots")
    app.connect("activate", activate)
    app.run([])
    """#

    @Test func aGTK4AppInTinyWlrootsTakesTypedTextAndAClick() throws {
        let runtime = try temporaryDirectory("seatkit-tiny")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let x = try WlrootsKioskX11Tests.Xvfb(runtime: runtime)
        defer { x.stop() }
        let (server, socket) = try Self.startTiny(runtime, Self.x11(x))
        defer { server.stop() }
        let script = runtime + "/gtk.py"
        try Self.gtkScript.write(toFile: script, atomically: true, encoding: .utf8)
        let app = try Background("/usr/bin/python3", [script], environment: Self.client(runtime, socket), log: runtime + "/gtk.log")
        defer { app.stop() }
        try #require(server.waitFor(timeout: 60) { $0.contains("deliver keyboard enter") } != nil,
                     "GTK did not get the keyboard:\n\(server.text)\ngtk:\n\(app.text)")
        _ = app.waitFor(timeout: 30) { $0.contains("presented") }
        usleep(500_000) // GTK's first frame
        let window = try x.window(ofOutput: "X11-1")
        try x.xdotool(["windowfocus", "--sync", window, "type", "--delay", "40", "Hi"])
        _ = app.waitFor(timeout: 15) { $0.contains("text:Hi") }
        #expect(app.text.contains("text:Hi"), "gtk:\n\(app.text)\ntiny:\n\(server.text)")
        // The button fills the window below the entry: the window's corner is the output's.
        try x.xdotool(["mousemove", "--window", window, "200", "200"])
        try x.xdotool(["click", "1"])
        _ = app.waitFor(timeout: 15) { $0.contains("clicked") }
        #expect(app.text.components(separatedBy: "\n").filter { $0 == "clicked" }.count == 1,
                "gtk:\n\(app.text)\ntiny:\n\(server.text)")
        #expect(server.text.contains("deliver pointer button 0x110 pressed"))
    }

    @Test func footInTinyWlrootsRunsACommandTypedIntoIt() throws {
        let runtime = try temporaryDirectory("seatkit-tiny")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let x = try WlrootsKioskX11Tests.Xvfb(runtime: runtime)
        defer { x.stop() }
        let (server, socket) = try Self.startTiny(runtime, Self.x11(x))
        defer { server.stop() }
        let foot = try Background("/usr/bin/foot", ["--override=font=monospace:size=10", "/bin/sh"],
                                  environment: Self.client(runtime, socket).merging(["SHELL": "/bin/sh", "PS1": "$ "]) { $1 },
                                  log: runtime + "/foot.log")
        defer { foot.stop() }
        try #require(server.waitFor(timeout: 60) { $0.contains("deliver keyboard enter") } != nil,
                     "foot did not get the keyboard:\n\(server.text)\nfoot:\n\(foot.text)")
        usleep(1_000_000) // the shell's prompt
        let window = try x.window(ofOutput: "X11-1")
        let file = runtime + "/typed"
        try x.xdotool(["windowfocus", "--sync", window, "type", "--delay", "30", "echo seatkit > \(file)\n"])
        var text = ""
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            if text == "seatkit\n" { break }
            usleep(100_000)
        }
        #expect(text == "seatkit\n", "foot's shell did not run what was typed:\nfoot:\n\(foot.text)\ntiny:\n\(server.text.suffix(3000))")
    }

    /// tiny-wlroots nested in SeatKit's Swift kiosk (the `kiosk` product), which takes its
    /// input from a script (a FIFO). Touch reaches tiny-wlroots as a wlroots touch device of
    /// its wayland backend, which wlroots 0.15 makes only for a touch capability that comes
    /// after it started: `plugTouchscreen` adds one once the client is up.
    final class Nested {
        let outer: Background
        let tiny: Background
        let socket: String
        private let script: FileHandle

        init(_ runtime: String) throws {
            let kiosk = try #require(CProgramTests.buildDirectory().map { $0 + "/kiosk" }, "the kiosk product is not built")
            let fifo = runtime + "/script"
            try #require(mkfifo(fifo, 0o600) == 0)
            let outer = try Background(kiosk, ["--script", fifo, "--size", "1280x720"], environment: ["XDG_RUNTIME_DIR": runtime],
                                       log: runtime + "/kiosk.log")
            guard let script = FileHandle(forWritingAtPath: fifo) else {
                outer.stop()
                throw WlrootsKioskBehaviourTests.KioskDidNotStart(log: "the kiosk did not open its script:\n\(outer.text)")
            }
            guard let outerSocket = outer.waitFor(timeout: 30, { $0.contains("listening on ") })
                .flatMap({ text in text.split(separator: "\n").first { $0.hasPrefix("listening on ") } })
                .map({ String($0.dropFirst("listening on ".count)) }) else {
                outer.stop()
                throw WlrootsKioskBehaviourTests.KioskDidNotStart(log: outer.text)
            }
            let (tiny, socket) = try TinyWlrootsTests.startTiny(runtime, ["WLR_BACKENDS": "wayland", "WAYLAND_DISPLAY": outerSocket])
            self.outer = outer
            self.tiny = tiny
            self.socket = socket
            self.script = script
            guard outer.waitFor(timeout: 30, { $0.contains("mapped ") }) != nil else {
                stop()
                throw WlrootsKioskBehaviourTests.KioskDidNotStart(log: "tiny's output window did not map:\n\(outer.text)")
            }
        }

        func send(_ lines: [String]) { script.write(Data((lines.joined(separator: "\n") + "\n").utf8)) }

        func plugTouchscreen() {
            send([#"{"type": "device-added", "device": 7, "name": "panel", "capabilities": ["touch"]}"#])
        }

        static func down(_ id: Int, _ x: Int, _ y: Int) -> String { #"{"type": "touch-down", "device": 7, "id": \#(id), "x": \#(x), "y": \#(y)}"# }
        static func move(_ id: Int, _ x: Int, _ y: Int) -> String { #"{"type": "touch-motion", "device": 7, "id": \#(id), "x": \#(x), "y": \#(y)}"# }
        static func up(_ id: Int) -> String { #"{"type": "touch-up", "device": 7, "id": \#(id)}"# }
        static let frame = #"{"type": "touch-frame", "device": 7}"#

        func stop() {
            try? script.close()
            tiny.stop()
            outer.stop()
        }
    }

    /// Touch through two compositors: the Swift kiosk delivers frames that mix phases (a
    /// finger goes down while another moves, one lifts while the other moves) to
    /// tiny-wlroots' output window; tiny-wlroots' bridge feeds that wlroots touch device to
    /// SeatKit; wev, in tiny-wlroots, gets one wl_touch.frame per device frame with all of
    /// that frame's events, never one per phase or per callback.
    @Test func wevInTinyWlrootsGetsOneTouchFramePerDeviceFrame() throws {
        let runtime = try temporaryDirectory("seatkit-tiny")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let nested = try Nested(runtime)
        defer { nested.stop() }
        let tiny = nested.tiny
        let wev = try Background("/usr/bin/stdbuf", ["-oL", "/usr/bin/wev"], environment: Self.client(runtime, nested.socket),
                                 log: runtime + "/wev.log")
        defer { wev.stop() }
        try #require(tiny.waitFor(timeout: 30) { $0.contains("mapped wev") } != nil, "wev:\n\(wev.text)\ntiny:\n\(tiny.text)")
        nested.plugTouchscreen()
        try #require(wev.waitFor(timeout: 30) { $0.contains("capabilities: pointer touch") } != nil,
                     "wev:\n\(wev.text)\ntiny:\n\(tiny.text)")
        usleep(300_000) // wev's wl_touch bound
        typealias N = Nested
        nested.send([N.down(0, 100, 100), N.frame,
                     N.move(0, 130, 100), N.down(1, 200, 150), N.frame,   // moved + began
                     N.move(0, 160, 100), N.move(1, 230, 150), N.frame,   // moved
                     N.move(0, 190, 100), N.up(1), N.frame,               // moved + ended
                     N.up(0), N.frame])                                   // ended
        _ = wev.waitFor(timeout: 15) { Self.events("wl_touch", inWev: $0).filter { $0 == "up" }.count >= 2 }

        // (Within a frame, the order is the router's: began, moved, ended.)
        let touch = Self.frames(Self.events("wl_touch", inWev: wev.text)).map { $0.sorted() }
        #expect(touch == [["down"], ["down", "motion"], ["motion", "motion"], ["motion", "up"], ["up"]],
                "one frame per device frame, with all its events:\n\(touch)\nwev:\n\(wev.text)\ntiny:\n\(tiny.text)")
        let delivered = tiny.text.components(separatedBy: "\n")
        #expect(delivered.filter { $0 == "deliver touch-frame" }.count == 5, "tiny:\n\(tiny.text)")
        #expect(delivered.contains { $0.hasPrefix("deliver touch down ") && $0.hasSuffix(" 100.00 100.00") },
                "the touch where the kiosk had it, in wev's surface:\n\(tiny.text)")
    }

    /// foot binds no wl_touch: in tiny-wlroots a tap becomes a left click of an emulated
    /// pointer (SeatKit's pointer emulation, through the bridge): what foot itself received
    /// (its WAYLAND_DEBUG log) is enter, press, release, leave, each closed by one frame, and
    /// no touch event.
    @Test func footInTinyWlrootsGetsATapAsOneFramedLeftClick() throws {
        let runtime = try temporaryDirectory("seatkit-tiny")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let nested = try Nested(runtime)
        defer { nested.stop() }
        nested.plugTouchscreen()
        try #require(nested.tiny.waitFor(timeout: 30) { _ in true } != nil)
        let foot = try Background("/usr/bin/foot", ["--override=font=monospace:size=10", "sh", "-c", "sleep 60"],
                                  environment: Self.client(runtime, nested.socket).merging(["WAYLAND_DEBUG": "1"]) { $1 },
                                  log: runtime + "/foot.log")
        defer { foot.stop() }
        try #require(nested.tiny.waitFor(timeout: 60) { $0.contains("mapped ") } != nil, "tiny:\n\(nested.tiny.text)\nfoot:\n\(foot.text.suffix(2000))")
        usleep(500_000)
        typealias N = Nested
        nested.send([N.down(0, 100, 100), N.frame, N.up(0), N.frame])
        // foot's own log: -> requests, and events as wl_pointer@N.event(...).
        func pointer(_ text: String) -> [String] {
            text.components(separatedBy: "\n").compactMap { line in
                guard !line.contains("->"), let r = line.range(of: #"wl_pointer@\d+\."#, options: .regularExpression) else { return nil }
                return String(line[r.upperBound...].prefix { $0 != "(" })
            }
        }
        _ = foot.waitFor(timeout: 15) { pointer($0).contains("leave") }
        let events = pointer(foot.text)
        #expect(Self.frames(events) == [["enter"], ["button"], ["button"], ["leave"]],
                "foot's wl_pointer:\n\(events)\ntiny:\n\(nested.tiny.text)")
        #expect(foot.text.contains(", 272, 1)") && foot.text.contains(", 272, 0)"), "BTN_LEFT pressed and released")
        #expect(!foot.text.contains("wl_touch@"), "foot binds no wl_touch")
        #expect(nested.tiny.text.contains("deliver emulated button down"))
    }

    /// GTK4 binds wl_touch: a tap on its button, through the kiosk and tiny-wlroots, clicks it.
    @Test func aTapInTinyWlrootsClicksAGTK4Button() throws {
        let runtime = try temporaryDirectory("seatkit-tiny")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let nested = try Nested(runtime)
        defer { nested.stop() }
        nested.plugTouchscreen()
        let script = runtime + "/gtk.py"
        try Self.gtkScript.write(toFile: script, atomically: true, encoding: .utf8)
        let app = try Background("/usr/bin/python3", [script], environment: Self.client(runtime, nested.socket), log: runtime + "/gtk.log")
        defer { app.stop() }
        try #require(app.waitFor(timeout: 60) { $0.contains("presented") } != nil, "gtk:\n\(app.text)\ntiny:\n\(nested.tiny.text)")
        usleep(700_000) // GTK's first frame
        typealias N = Nested
        nested.send([N.down(0, 200, 200), N.frame, N.up(0), N.frame])
        _ = app.waitFor(timeout: 15) { $0.contains("clicked") }
        #expect(app.text.components(separatedBy: "\n").filter { $0 == "clicked" }.count == 1,
                "gtk:\n\(app.text)\ntiny:\n\(nested.tiny.text)")
        #expect(nested.tiny.text.contains("deliver touch down 0 "), "GTK got it as touch:\n\(nested.tiny.text)")
    }
}
