import Foundation
import SeatKitReplay
import Testing

/// The wlroots kiosk's idle, lock and cursor-shape protocols (issue 26 goal 4, issue 24
/// goal 7), which wlroots 0.15 has no helper for and the kiosk builds on SeatKit's C API:
/// ext-idle-notify-v1 fed by a spy on the router, idle-inhibit counted on visible surfaces,
/// the --dim-after step, ext-session-lock-v1 as one SeatKit grab, cursor-shape-v1 through
/// the bridge. Real clients (swayidle, a GTK4 app holding an idle inhibitor, swaylock with
/// pam_wrapper, foot, wev, grim) and real libinput devices under umockdev (`--libinput`), so
/// every input goes through libinput, SeatKit's router and the wlr_seat bridge. The kiosk's
/// timers are the event loop's, on the wall clock: a step waits for what a client or the
/// kiosk printed, and "nothing happened" is read once a later timer of the kiosk's own
/// (--cursor-timeout) has fired.
@Suite(.serialized) struct WlrootsKioskIdleLockTests {
    static let keyboard = 0, mouse = 1, touchscreen = 2
    static let enter: UInt16 = 28, keyX: UInt16 = 45, keyZ: UInt16 = 44
    static let password: [UInt16] = [31, 18, 46, 19, 18, 20]  // "secret"

    /// A kiosk reading an emulated keyboard, mouse and touchscreen through SeatKit's libinput.
    final class Session {
        let devices: EmulatedInputDevices
        let runtime: String
        let server: Background
        let socket: String
        private var clients: [Background] = []

        init(_ options: [String]) throws {
            let kiosk = try WlrootsKioskTests.builtKiosk()
            devices = try EmulatedInputDevices([SyntheticDevice.keyboard(), SyntheticDevice.mouse(), SyntheticDevice.touchscreen()])
            runtime = try temporaryDirectory("seatkit-wlr-idle")
            var environment = try devices.environment()
            environment.merge(WlrootsKioskLaunchTests.headless) { $1 }
            environment.merge(["XDG_RUNTIME_DIR": runtime, "HOME": runtime, "LANG": "C.UTF-8"]) { $1 }
            server = try Background(kiosk, ["--verbose", "--libinput", "--seat", "seat0"] + options,
                                    environment: environment, log: runtime + "/kiosk.log")
            socket = try #require(WlrootsKioskLaunchTests.socket(of: server), "the kiosk did not start:\n\(server.text)")
        }

        /// A client of the kiosk (its output in NAME.log), stopped with the session.
        func launch(_ name: String, _ path: String, _ arguments: [String] = [], environment: [String: String] = [:]) throws -> Background {
            let client = try Background(path, arguments,
                                        environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket, "HOME": runtime]
                                            .merging(environment) { $1 },
                                        log: runtime + "/\(name).log")
            clients.append(client)
            return client
        }

        func wev() throws -> Background {
            let wev = try launch("wev", "/usr/bin/stdbuf", ["-oL", "/usr/bin/wev"])
            try #require(wev.waitFor(timeout: 30) { $0.contains("wl_keyboard] enter:") } != nil,
                         "wev got no keyboard focus:\n\(wev.text)\nkiosk:\n\(server.text)")
            return wev
        }

        func key(_ code: UInt16) throws {
            try devices.write([EvdevEvent(type: 1, code: code, value: 1)], toDevice: keyboard)
            try devices.write([EvdevEvent(type: 1, code: code, value: 0)], toDevice: keyboard)
        }

        func type(_ codes: [UInt16]) throws {
            for code in codes { try key(code) }
        }

        /// Relative motion, then a left click.
        func click(movingBy dx: Int32, _ dy: Int32) throws {
            try devices.write([EvdevEvent(type: 2, code: 0, value: dx), EvdevEvent(type: 2, code: 1, value: dy)], toDevice: mouse)
            try devices.write([EvdevEvent(type: 1, code: 0x110, value: 1)], toDevice: mouse)
            try devices.write([EvdevEvent(type: 1, code: 0x110, value: 0)], toDevice: mouse)
        }

        /// A tap at a point of the 1280x720 screen.
        func tap(_ x: Double, _ y: Double) throws {
            let rx = Int32((x / 1280 * 4095).rounded()), ry = Int32((y / 720 * 4095).rounded())
            try devices.write([EvdevEvent(type: 3, code: 0x2f, value: 0), EvdevEvent(type: 3, code: 0x39, value: 7),
                               EvdevEvent(type: 3, code: 0x35, value: rx), EvdevEvent(type: 3, code: 0x36, value: ry),
                               EvdevEvent(type: 1, code: 0x14a, value: 1), EvdevEvent(type: 3, code: 0, value: rx),
                               EvdevEvent(type: 3, code: 1, value: ry)], toDevice: touchscreen)
            try devices.write([EvdevEvent(type: 3, code: 0x2f, value: 0), EvdevEvent(type: 3, code: 0x39, value: -1),
                               EvdevEvent(type: 1, code: 0x14a, value: 0)], toDevice: touchscreen)
        }

        /// Waits for the kiosk to print `line` (a whole line) `count` times.
        func require(_ line: String, count: Int = 1, timeout: Double = 30, sourceLocation: SourceLocation = #_sourceLocation) throws {
            try #require(server.waitFor(timeout: timeout) { Self.lines($0, line) >= count } != nil,
                         "the kiosk never printed \"\(line)\" \(count) times:\n\(server.text.suffix(6000))", sourceLocation: sourceLocation)
        }

        /// How many lines the kiosk has printed: a mark for `require(_:after:)`.
        var mark: Int { server.text.components(separatedBy: "\n").count - 1 }

        /// The kiosk's lines from `mark` on.
        func lines(after mark: Int) -> [String] {
            Array(server.text.components(separatedBy: "\n").dropFirst(mark))
        }

        /// Waits for the kiosk to print `line` after `mark`.
        func require(_ line: String, after mark: Int, timeout: Double = 30, sourceLocation: SourceLocation = #_sourceLocation) throws {
            try #require(server.waitFor(timeout: timeout) { _ in self.lines(after: mark).contains(line) } != nil,
                         "the kiosk never printed \"\(line)\" after line \(mark):\n\(server.text.suffix(6000))", sourceLocation: sourceLocation)
        }

        static func lines(_ text: String, _ line: String) -> Int {
            text.components(separatedBy: "\n").filter { $0 == line }.count
        }

        /// A grim screenshot.
        func shoot(_ name: String) throws -> WlrootsKioskScreenTests.Shot {
            let path = runtime + "/\(name).ppm"
            let grim = try run("/usr/bin/grim", ["-t", "ppm", path], environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket])
            try #require(grim.status == 0, "grim: \(grim.output)\nkiosk:\n\(server.text.suffix(4000))")
            return try WlrootsKioskScreenTests.Shot(ppm: path)
        }

        deinit {
            for client in clients.reversed() { client.stop() }
            server.stop()
            try? FileManager.default.removeItem(atPath: runtime)
        }
    }

    /// wev's events of one interface and kind ("wl_pointer", "button") in `text`.
    static func wevEvents(_ text: Substring, _ interface: String, _ event: String) -> [String] {
        text.components(separatedBy: "\n").filter { $0.contains("\(interface)] \(event):") }
    }

    // ---- ext-idle-notify-v1 ----

    /// swayidle asks for two timeouts; with no input it is told idle for the shorter, then the
    /// longer; a key (real libinput, seen by the kiosk's spy on SeatKit's router) resumes
    /// both, and the count starts again from the key.
    @Test func swayidleIsToldIdleAndResumedByInputSeatKitRouted() throws {
        let session = try Session([])
        let wev = try session.wev()
        _ = wev
        let swayidle = try session.launch("swayidle", "/usr/bin/swayidle", ["timeout", "1", "echo idle-1", "resume", "echo resumed-1",
                                                                            "timeout", "2", "echo idle-2", "resume", "echo resumed-2"])
        try session.require("idle notification after 2000 ms: idled")
        try session.key(Self.keyZ)
        try session.require("idle notification after 1000 ms: resumed")
        try session.require("idle notification after 2000 ms: resumed")
        try session.require("idle notification after 1000 ms: idled", count: 2)
        try #require(swayidle.waitFor(timeout: 15) { $0.components(separatedBy: "\n").filter { $0.hasPrefix("resumed-") }.count >= 2 } != nil,
                     "swayidle:\n\(swayidle.text)")

        let timeline = session.server.text.components(separatedBy: "\n").filter { $0.hasPrefix("idle notification after") || $0.hasPrefix("deliver key") }
        #expect(Self.sameSteps(timeline), "\(timeline)")
        let commands = swayidle.text.components(separatedBy: "\n").filter { $0.hasPrefix("idle-") || $0.hasPrefix("resumed-") }
        #expect(commands.filter { $0 == "idle-1" }.count >= 1 && commands.filter { $0 == "resumed-1" }.count == 1
                && commands.filter { $0 == "resumed-2" }.count == 1, "swayidle:\n\(swayidle.text)")
    }

    /// The order that matters, whatever order swayidle asked for its two notifications in:
    /// both idle before the key, both resumed before the key is delivered, the 1 s one idle
    /// before the 2 s one.
    static func sameSteps(_ timeline: [String]) -> Bool {
        func index(_ line: String) -> Int? { timeline.firstIndex(of: line) }
        guard let idle1 = index("idle notification after 1000 ms: idled"), let idle2 = index("idle notification after 2000 ms: idled"),
              let resumed1 = index("idle notification after 1000 ms: resumed"), let resumed2 = index("idle notification after 2000 ms: resumed"),
              let key = index("deliver key 44 pressed") else { return false }
        return idle1 < idle2 && idle2 < resumed1 && idle2 < resumed2 && max(resumed1, resumed2) < key
    }

    // ---- idle-inhibit ----

    /// A GTK4 app inhibits idle (`Gtk.Application.inhibit`: a zwp_idle_inhibitor_v1 on its
    /// window): while it is the app shown, swayidle is never told idle and the screen neither
    /// dims nor blanks, though the kiosk's own cursor timeout, longer than all three, fires.
    /// When wev is mapped over it, its inhibitor no longer counts (its surface is not
    /// visible): the screen dims, then blanks, and swayidle is told idle.
    @Test func anInhibitorOnTheAppShownKeepsTheScreenOnAndOneOnAHiddenAppDoesNot() throws {
        let session = try Session(["--dim-after", "1000", "--blank-after", "2000", "--cursor-timeout", "3500"])
        let swayidle = try session.launch("swayidle", "/usr/bin/swayidle", ["timeout", "1", "echo idle-1"])
        try session.require("idle notification after 1000 ms")
        let path = session.runtime + "/inhibit.py"
        try GTKInhibitingApp.script.write(toFile: path, atomically: true, encoding: .utf8)
        let app = try session.launch("gtk", "/usr/bin/python3", [path],
                                     environment: ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1"])
        try #require(app.waitFor(timeout: 60) { $0.contains("inhibited") } != nil, "gtk:\n\(app.text)\nkiosk:\n\(session.server.text)")
        try session.require("idle inhibitors: 1")
        // Pointer motion after the inhibitor: every timer, the cursor's too, starts from here
        // (and the screen undims and wakes if it went dark while GTK started).
        let mark = session.mark
        let idledBefore = swayidle.text.components(separatedBy: "\n").filter { $0 == "idle-1" }.count
        try session.devices.write([EvdevEvent(type: 2, code: 0, value: 5)], toDevice: Self.mouse)
        try session.require("cursor hidden after 3500 ms", after: mark)
        let held = session.lines(after: mark)
        #expect(!held.contains("screen dimmed") && !held.contains("screen blanked") && !held.contains { $0.hasSuffix(": idled") },
                "idle came through the inhibitor:\n\(held)")
        #expect(swayidle.text.components(separatedBy: "\n").filter { $0 == "idle-1" }.count == idledBefore)

        // wev over the GTK app: the inhibitor's surface is hidden, so it does not count, and
        // every timeout runs again from then.
        let covered = session.mark
        let wev = try session.wev()
        _ = wev
        try session.require("screen blanked", after: covered)
        let after = session.lines(after: covered)
        let dimmed = try #require(after.firstIndex(of: "screen dimmed"), "\(after)")
        let blanked = try #require(after.firstIndex(of: "screen blanked"))
        #expect(dimmed < blanked)
        #expect(after.contains("idle notification after 1000 ms: idled"))
        #expect(after.firstIndex(of: "idle inhibitors: 0").map { $0 < dimmed } == true, "\(after)")
        try #require(swayidle.waitFor(timeout: 15) { $0.components(separatedBy: "\n").filter { $0 == "idle-1" }.count > idledBefore } != nil,
                     "swayidle:\n\(swayidle.text)")
    }

    // ---- --dim-after ----

    /// foot on dark red: after --dim-after the screenshot is half as bright (the dim
    /// overlay, drawn by the scene, is what screencopy gets); a tap undims it and is
    /// delivered (foot, without wl_touch, gets an emulated click); after --blank-after the
    /// screen blanks, and the tap that wakes it reaches no one.
    @Test func theScreenDimsToHalfBeforeBlankingAndTheWakingTapIsSwallowed() throws {
        let session = try Session(["--dim-after", "2000", "--blank-after", "5000", "--cursor", "never"])
        // Started as a client of its own, not with `--`: the kiosk's environment preloads
        // umockdev, under which foot's shell cannot have its terminal.
        _ = try session.launch("foot", "/usr/bin/foot", ["--override=colors.background=c00000", "--override=colors.alpha=1.0",
                                                        "sh", "-c", "sleep 60"])
        try session.require("mapped foot")
        // foot's first frame may still be coming, and the screen may have dimmed or blanked
        // while foot started: a little mouse motion (no cursor drawn) brings it back.
        var mark = session.mark
        try session.devices.write([EvdevEvent(type: 2, code: 0, value: 1)], toDevice: Self.mouse)
        var bright = try session.shoot("bright")
        for _ in 0..<20 where bright.rgb(640, 360) != 0xC00000 {
            usleep(100_000)
            mark = session.mark
            try session.devices.write([EvdevEvent(type: 2, code: 0, value: 1)], toDevice: Self.mouse)
            bright = try session.shoot("bright")
        }
        #expect(bright.rgb(640, 360) == 0xC00000, "\(String(bright.rgb(640, 360), radix: 16))")
        try session.require("screen dimmed", after: mark)
        let dim = try session.shoot("dim")
        let red = Int(dim.rgb(640, 360) >> 16), rest = dim.rgb(640, 360) & 0xFFFF
        #expect(abs(red - 0x60) <= 1 && rest == 0, "half of c00000: \(String(dim.rgb(640, 360), radix: 16))")
        #expect(dim.rgb(5, 5) == dim.rgb(640, 360) && dim.rgb(1275, 715) == dim.rgb(640, 360), "the whole screen dims")

        // A tap while dimmed: the screen comes back and the tap is delivered.
        let before = Session.lines(session.server.text, "deliver emulated button down")
        mark = session.mark
        try session.tap(640, 360)
        try session.require("screen undimmed", after: mark)
        try #require(session.server.waitFor(timeout: 15) { Session.lines($0, "deliver emulated button down") > before } != nil,
                     "the tap that undimmed was not delivered:\n\(session.server.text.suffix(3000))")
        #expect(try session.shoot("undimmed").rgb(640, 360) == 0xC00000)

        // Dimmed again, then blanked: the waking tap is swallowed.
        try session.require("screen blanked", after: mark)
        let blanked = session.lines(after: mark)
        let dimmedAgain = try #require(blanked.firstIndex(of: "screen dimmed"), "\(blanked)")
        #expect(dimmedAgain < blanked.firstIndex(of: "screen blanked")!)
        let delivered = Session.lines(session.server.text, "deliver emulated button down")
        mark = session.mark
        try session.tap(640, 360)
        try session.require("screen woke", after: mark)
        try session.tap(640, 360)
        try #require(session.server.waitFor(timeout: 15) { Session.lines($0, "deliver emulated button down") > delivered } != nil)
        #expect(Session.lines(session.server.text, "deliver emulated button down") == delivered + 1,
                "the waking tap was delivered:\n\(session.server.text.suffix(3000))")
    }

    @Test func dimAfterIsRefusedWhenNotShorterThanBlankAfter() throws {
        let kiosk = try WlrootsKioskTests.builtKiosk()
        for (options, reason) in [(["--dim-after", "5000", "--blank-after", "5000"], "--dim-after must be shorter than --blank-after"),
                                  (["--dim-after", "soon"], "--dim-after: 'soon' is not a number")] {
            let refused = try run(kiosk, options, environment: WlrootsKioskLaunchTests.headless)
            #expect(refused.status == 2 && refused.output.contains(reason), "\(options): \(refused.output)")
        }
    }

    // ---- ext-session-lock-v1 ----

    /// The environment that makes swaylock's PAM accept `secret` (pam_wrapper's pam_matrix
    /// with a password file of the test's: no account made, nothing of the system's PAM read).
    static func pamEnvironment(in directory: String) throws -> [String: String] {
        let library = try #require(["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"]
            .first { access("\($0)/libpam_wrapper.so", R_OK) == 0 }, "libpam_wrapper.so is missing (scripts/setup.sh installs libpam-wrapper)")
        let module = "\(library)/pam_wrapper/pam_matrix.so"
        let services = directory + "/pam"
        try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
        let passdb = services + "/passdb"
        let user = try #require(getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) })
        try "\(user):secret:swaylock\n".write(toFile: passdb, atomically: true, encoding: .utf8)
        try "auth required \(module) passdb=\(passdb)\naccount required \(module) passdb=\(passdb)\n"
            .write(toFile: services + "/swaylock", atomically: true, encoding: .utf8)
        return ["LD_PRELOAD": "\(library)/libpam_wrapper.so", "PAM_WRAPPER": "1", "PAM_WRAPPER_SERVICE_DIR": services]
    }

    /// Types the password and Enter until the session unlocks (swaylock 1.7 drops keys while
    /// PAM answers the previous attempt, and nothing says when that answer came).
    static func unlock(_ session: Session) throws {
        for _ in 1...5 {
            try session.type(password + [enter])
            if session.server.waitFor(timeout: 4, { $0.contains("\nsession unlocked\n") }) != nil { return }
        }
        try session.require("session unlocked")
    }

    /// A click, a key and a tap on wev's window (the whole screen).
    static func inputOnWev(_ session: Session) throws {
        try session.click(movingBy: 40, 40)
        try session.key(keyX)
        try session.tap(640, 360)
    }

    /// While locked, wev may be told about focus, never given a button, key or touch: its
    /// input from `mark` on, read up to a `z` typed after the unlock.
    static func expectNoInputWhileLocked(_ wev: Background, since mark: String.Index, _ session: Session) throws {
        try session.key(keyZ)
        try #require(wev.waitFor(timeout: 15) { wevEvents($0[mark...], "wl_keyboard", "key").filter { $0.contains("key: 52;") }.count == 2 } != nil,
                     "wev got no z after the unlock:\n\(wev.text[mark...])")
        let log = wev.text[mark...]
        let leaked = wevEvents(log, "wl_pointer", "button") + wevEvents(log, "wl_touch", "down")
            + wevEvents(log, "wl_keyboard", "key").filter { !$0.contains("key: 52;") }
        #expect(leaked.isEmpty, "wev got input while the session was locked: \(leaked)")
    }

    @Test func swaylockLocksTheKioskRefusesAWrongPasswordAndUnlocksWithTheRightOne() throws {
        let session = try Session([])
        let wev = try session.wev()
        let pam = try Self.pamEnvironment(in: session.runtime)
        let swaylock = try session.launch("swaylock", "/usr/bin/swaylock", ["-d"], environment: pam)
        try session.require("session locked")
        try session.require("lock surface shown on HEADLESS-1")
        try #require(wev.waitFor(timeout: 15) { $0.contains("wl_keyboard] leave:") } != nil, "wev:\n\(wev.text)")
        let locked = wev.text.endIndex

        // A second lock screen while locked is told `finished`, and gives up.
        let second = try session.launch("swaylock2", "/usr/bin/swaylock", environment: pam)
        try #require(second.waitFor(timeout: 15) { $0.contains("Failed to lock session") } != nil, "second swaylock:\n\(second.text)")
        try session.require("session lock refused: already locked")

        // A click, a key, a tap on wev's window reach swaylock or no one; "x" and Enter are a
        // wrong password.
        try Self.inputOnWev(session)
        try session.type([Self.enter])
        try #require(swaylock.waitFor(timeout: 15) { $0.contains("pam_authenticate failed") } != nil, "swaylock:\n\(swaylock.text)")
        #expect(!session.server.text.contains("session unlocked"))

        try Self.unlock(session)
        try Self.expectNoInputWhileLocked(wev, since: locked, session)
        #expect(swaylock.exitStatus(timeout: 15) == 0, "swaylock:\n\(swaylock.text.suffix(2000))")

        // Unlocked: wev has the keyboard back and gets its input again.
        let unlocked = wev.text.endIndex
        try Self.inputOnWev(session)
        // All three, not the tap's up alone: libinput's button debouncing holds a release that
        // comes within 25 ms of its press until those 25 ms are over (a timer: IS_DOWN_WAITING,
        // then IS_UP_DELAYING), while the key and the tap, from other devices, go on at once; so
        // wev may print the tap's up before the click's release (seen in a busy CI run).
        try #require(wev.waitFor(timeout: 15) {
            Self.wevEvents($0[unlocked...], "wl_touch", "up").count == 1 && Self.wevEvents($0[unlocked...], "wl_pointer", "button").count >= 2
                && Self.wevEvents($0[unlocked...], "wl_keyboard", "key").count >= 2
        } != nil, "wev did not get the click, the key and the tap after the unlock:\n\(wev.text[unlocked...])")
        let after = wev.text[unlocked...]
        #expect(Self.wevEvents(after, "wl_pointer", "button").count == 2)
        #expect(Self.wevEvents(after, "wl_keyboard", "key").count == 2)
    }

    /// swaylock killed while locked: the session stays locked with no lock surface (input
    /// reaches no one) until a new lock screen takes over and is unlocked.
    @Test func aLockScreenKilledWhileLockedLeavesTheKioskLockedUntilAnotherUnlocksIt() throws {
        let session = try Session([])
        let wev = try session.wev()
        let pam = try Self.pamEnvironment(in: session.runtime)
        let first = try session.launch("swaylock", "/usr/bin/swaylock", environment: pam)
        try session.require("lock surface shown on HEADLESS-1")
        try #require(wev.waitFor(timeout: 15) { $0.contains("wl_keyboard] leave:") } != nil, "wev:\n\(wev.text)")
        let locked = wev.text.endIndex
        first.stop()
        try session.require("session lock abandoned: still locked")

        try Self.inputOnWev(session)
        let second = try session.launch("swaylock2", "/usr/bin/swaylock", ["-d"], environment: pam)
        try session.require("lock surface shown on HEADLESS-1", count: 2)
        #expect(Session.lines(session.server.text, "session locked") == 1, "the second lock screen took over the same lock")
        try Self.inputOnWev(session)
        try session.type([Self.enter])
        try #require(second.waitFor(timeout: 15) { $0.contains("pam_authenticate failed") } != nil, "swaylock:\n\(second.text)")
        try Self.unlock(session)
        try Self.expectNoInputWhileLocked(wev, since: locked, session)
    }

    /// An app that maps while the session is locked (a new window, shown by the kiosk as its
    /// newest app) is given no keyboard focus and none of the click, key and tap that follow;
    /// once unlocked it is the app shown and has the keyboard.
    @Test func anAppMappedWhileLockedGetsNeitherFocusNorInputUntilTheUnlock() throws {
        let session = try Session([])
        _ = try session.wev()
        let pam = try Self.pamEnvironment(in: session.runtime)
        let swaylock = try session.launch("swaylock", "/usr/bin/swaylock", ["-d"], environment: pam)
        try session.require("lock surface shown on HEADLESS-1")
        let late = try session.launch("wev2", "/usr/bin/stdbuf", ["-oL", "/usr/bin/wev"])
        try session.require("mapped wev", count: 2)
        try Self.inputOnWev(session)
        try session.type([Self.enter])
        try #require(swaylock.waitFor(timeout: 15) { $0.contains("pam_authenticate failed") } != nil, "swaylock:\n\(swaylock.text)")
        let whileLocked = late.text
        #expect(!whileLocked.contains("wl_keyboard] enter:"), "the new app took the keyboard while locked:\n\(whileLocked)")
        let leaked = Self.wevEvents(whileLocked[...], "wl_pointer", "button") + Self.wevEvents(whileLocked[...], "wl_touch", "down")
            + Self.wevEvents(whileLocked[...], "wl_keyboard", "key")
        #expect(leaked.isEmpty, "the new app got input while locked: \(leaked)")

        try Self.unlock(session)
        try #require(late.waitFor(timeout: 15) { $0.contains("wl_keyboard] enter:") } != nil, "wev2:\n\(late.text)")
        try session.key(Self.keyZ)
        #expect(late.waitFor(timeout: 15) { Self.wevEvents($0[...], "wl_keyboard", "key").count == 2 } != nil, "wev2:\n\(late.text)")
    }

    // ---- cursor-shape-v1 ----

    /// The wire client (no client in Debian 12 speaks cursor-shape-v1) maps a window over
    /// the screen; the mouse moves into it; a shape quoting a serial from before its
    /// wl_pointer.enter is refused, one quoting the enter's is honoured and drawn from the
    /// xcursor theme (grim's screenshots with the cursor show left_ptr, then text, then
    /// ew-resize at the pointer); a shape version 1 does not list is a protocol error.
    @Test func theFocusedClientsCursorShapeIsHonouredAndAStaleSerialIsNot() throws {
        let session = try Session(["--cursor", "always"])
        let wire = try WireClient(runtimeDirectory: session.runtime, socket: session.socket)
        try wire.roundTripRegistry()
        #expect(wire.globals["wp_cursor_shape_manager_v1"]?.version == 1)
        #expect(wire.globals["ext_idle_notifier_v1"]?.version == 1)
        #expect(wire.globals["ext_session_lock_manager_v1"]?.version == 1)
        #expect(wire.globals["zwp_idle_inhibit_manager_v1"] != nil)
        let seat = try wire.bind("wl_seat", version: 7)
        let pointer = wire.newID()
        wire.send(seat, 0, [pointer])  // get_pointer
        let manager = try wire.bind("wp_cursor_shape_manager_v1", version: 1)
        let device = wire.newID()
        wire.send(manager, 1, [device, pointer])  // get_pointer
        _ = try wire.mapToplevel(appID: "shapes", width: 1280, height: 720)
        try session.require("mapped shapes")
        try session.devices.write([EvdevEvent(type: 2, code: 0, value: 30), EvdevEvent(type: 2, code: 1, value: 30)], toDevice: Self.mouse)
        let enter = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 0 }), "no wl_pointer.enter:\n\(session.server.text)")
        let serial = enter.uint(at: 0)
        // Where the pointer is (the window is the screen): wl_fixed surface_x, surface_y.
        let x = Int(Int32(bitPattern: enter.uint(at: 2)) / 256), y = Int(Int32(bitPattern: enter.uint(at: 3)) / 256)
        // What the cursor looks like there, in grim screenshots with the cursor (-c): the
        // 48x48 pixels around the pointer, taken until two shots in a row agree.
        func cursor(_ name: String) throws -> [UInt32] {
            var last: [UInt32] = []
            for attempt in 0..<20 {
                let path = session.runtime + "/\(name)-\(attempt).ppm"
                let grim = try run("/usr/bin/grim", ["-c", "-t", "ppm", path],
                                   environment: ["XDG_RUNTIME_DIR": session.runtime, "WAYLAND_DISPLAY": session.socket])
                try #require(grim.status == 0, "grim: \(grim.output)")
                let shot = try WlrootsKioskScreenTests.Shot(ppm: path)
                let pixels = (max(0, y - 24)..<min(720, y + 24)).flatMap { py in (max(0, x - 24)..<min(1280, x + 24)).map { shot.rgb($0, py) } }
                if pixels == last { return pixels }
                last = pixels
            }
            return last
        }
        let arrow = try cursor("left_ptr")

        wire.send(device, 1, [serial &- 1, UInt32(4)])  // set_shape(stale, pointer)
        wire.send(device, 1, [serial, UInt32(9)])  // set_shape(text)
        try session.require("cursor shape text")
        #expect(!session.server.text.contains("cursor shape pointer"), "a stale serial was honoured")
        let text = try cursor("text")
        wire.send(device, 1, [serial, UInt32(26)])  // ew-resize
        try session.require("cursor shape ew-resize")
        let resize = try cursor("ew-resize")
        // The theme's three images, drawn at the pointer: each differs from the others.
        #expect(arrow != text && text != resize && arrow != resize, "the drawn cursor did not change with the shape")

        wire.send(device, 1, [serial, UInt32(35)])
        let error = try #require(wire.read(until: { $0.object == 1 && $0.opcode == 0 }), "no wl_display.error")
        #expect(error.uint(at: 0) == device && error.uint(at: 1) == 1, "wp_cursor_shape_device_v1.error.invalid_shape")
    }
}
