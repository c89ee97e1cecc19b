import Foundation
import SeatKitReplay
import Testing

/// An on-screen keyboard under the wlroots kiosk: wvkbd's layer-shell surface is a SeatKit
/// surface whose responder can never become first responder, so replayed taps on its keys
/// reach wvkbd while keyboard focus stays with a GTK4 app, and the keys wvkbd types through
/// virtual-keyboard-v1 are routed by SeatKit to that app's entry.
@Suite(.serialized) struct WlrootsKioskKeyboardTests {
    /// A GTK4 entry at the top of its window (above the keyboard) that prints its text and
    /// whether its window is active (has keyboard focus).
    /// Starts the GTK4 entry app (`entryScript`) on the kiosk's display.
    static func startEntryApp(runtime: String, environment: [String: String]) throws -> Background {
        let script = runtime + "/entry.py"
        try entryScript.write(toFile: script, atomically: true, encoding: .utf8)
        return try Background("/usr/bin/python3", [script],
                              environment: environment.merging(WlrootsKioskPopupTests.gtkEnvironment) { $1 },
                              log: runtime + "/gtk.log")
    }

    /// Waits for the kiosk's replay to finish, then (briefly) for the app to print `word`.
    static func waitForReplay(_ server: Background, _ app: Background, typing word: String) throws {
        try #require(server.waitFor(timeout: 60) { $0.contains("replay finished") } != nil,
                     "the replay did not finish:\n\(server.text)\ngtk:\n\(app.text)")
        _ = app.waitFor(timeout: 10) { $0.contains("text:" + word) }
    }

    /// The lines of `text` that start with `prefix`.
    static func lines(_ text: String, _ prefix: String) -> [String] {
        text.components(separatedBy: "\n").filter { $0.hasPrefix(prefix) }
    }

    static let entryScript = #"""
    import gi
    gi.require_version("Gtk", "4.0")
    from gi.repository import Gtk

    def say(text):
        print(text, flush=True)

    def activate(app):
        win = Gtk.ApplicationWindow(application=app, title="seatkit-osk-entry")
        entry = Gtk.Entry()
        entry.set_valign(Gtk.Align.START)
        entry.connect("changed", lambda e: say("text:" + e.get_text()))
        win.connect("notify::is-active", lambda w, _: say("window active: %s" % w.is_active()))
        win.set_child(entry)
        win.present()
        entry.grab_focus()

    app = Gtk.Application(application_id="org.seatkit.WlrootsOSK")
    app.connect("activate", activate)
    app.run([])
    """#

    /// Where wvkbd-mobintl 0.12 (Debian 12) draws a letter of its top letter row on the
    /// 1280x720 output, its height pinned to 240 px (-H and -L): six rows of 40 px from
    /// y 480, "qwertyuiop" the third (y 560-600), keys 1280/11 px wide after a half-key
    /// indent, so key i's centre is at (i + 1) * 1280 / 11.
    static func key(_ letter: Character) -> (Double, Double) {
        let row = Array("qwertyuiop")
        let i = row.firstIndex(of: letter)!
        return (Double(i + 1) * 1280 / 11, 580)
    }

    @Test func tapsOnWvkbdTypeIntoTheFocusedGTK4EntryWhichKeepsKeyboardFocus() throws {
        let word = "typewriter"  // all on the top letter row
        let runtime = try temporaryDirectory("seatkit-wlr-osk")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        var s = FrameScript(startingAt: 0)
        s.time = 1_500_000  // GTK's first frame
        for (n, letter) in word.enumerated() {
            let (x, y) = Self.key(letter)
            WlrootsKioskBehaviourTests.press(&s, x, y, id: Int32(n + 1), hold: 60_000, after: 150_000)
        }
        let recording = runtime + "/osk.yml"
        try WlrootsKioskBehaviourTests.write(s, to: recording)

        let (server, socket) = try WlrootsKioskClientTests.startKiosk(runtime, recording)
        defer { server.stop() }
        let environment = ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket, "HOME": runtime]
        // The keyboard first (the replay starts when the app maps).
        let wvkbd = try Background("/usr/bin/wvkbd-mobintl", ["-H", "240", "-L", "240"], environment: environment,
                                   log: runtime + "/wvkbd.log")
        defer { wvkbd.stop() }
        try #require(server.waitFor(timeout: 30) { $0.contains("panel mapped") } != nil,
                     "wvkbd's panel did not map:\n\(server.text)\nwvkbd:\n\(wvkbd.text)")
        let app = try Self.startEntryApp(runtime: runtime, environment: environment)
        defer { app.stop() }
        try Self.waitForReplay(server, app, typing: word)
        let kiosk = server.text
        let lines = Self.lines

        #expect(kiosk.contains("panel mapped wlroots at 0,480 1280x240"), "kiosk:\n\(kiosk)")
        #expect(lines(app.text, "text:").last == "text:" + word, "gtk:\n\(app.text)\nkiosk:\n\(kiosk)")
        // The taps reached wvkbd (the panel's surface; the app got none: its entry would
        // have moved its cursor, not typed).
        #expect(lines(kiosk, "deliver touch down ").count == word.count)
        // SeatKit routed each of wvkbd's keys to the first responder, the app.
        #expect(lines(kiosk, "deliver key ").filter { $0.hasSuffix(" pressed") }.count == word.count)
        // The app kept keyboard focus throughout: it was entered once and never left, and
        // its window never went inactive.
        #expect(lines(kiosk, "deliver keyboard enter").count == 1)
        #expect(lines(kiosk, "deliver keyboard leave").isEmpty)
        #expect(lines(app.text, "window active: ") == ["window active: True"], "gtk:\n\(app.text)")
    }

    /// Where squeekboard 1.21 (Debian 12) draws a letter of its top row ("qwertyuiop") on
    /// the 1280x720 output: its us_wide layout fills the lower half (y 360-720), the top row
    /// around y 405, keys about 1280/11 px wide after a half-key indent as in wvkbd.
    static func squeekboardKey(_ letter: Character) -> (Double, Double) {
        (key(letter).0, 405)
    }

    /// squeekboard is an input method (input-method-v2): a tap on the entry enables the
    /// app's text-input-v3, the kiosk's relay activates squeekboard, which shows its panel,
    /// and the text of each key tapped reaches the entry through the relay (commit_string
    /// to text-input-v3), never as keyboard focus on the panel.
    @Test func squeekboardTypesIntoTheGTK4EntryThroughTheInputMethodRelay() throws {
        let word = "typewriter"
        let runtime = try temporaryDirectory("seatkit-wlr-osk")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        var s = FrameScript(startingAt: 0)
        s.time = 1_500_000
        // Tap the entry (GTK enables its text input on a tap), then give squeekboard time to
        // show its panel.
        WlrootsKioskBehaviourTests.press(&s, 640, 20, id: 1, hold: 60_000, after: 5_000_000)
        for (n, letter) in word.enumerated() {
            let (x, y) = Self.squeekboardKey(letter)
            WlrootsKioskBehaviourTests.press(&s, x, y, id: Int32(n + 2), hold: 60_000, after: 200_000)
        }
        let recording = runtime + "/squeekboard.yml"
        try WlrootsKioskBehaviourTests.write(s, to: recording)
        // squeekboard shows itself only when the screen keyboard is enabled in GSettings.
        let settings = runtime + "/config/glib-2.0/settings"
        try FileManager.default.createDirectory(atPath: settings, withIntermediateDirectories: true)
        try "[org/gnome/desktop/a11y/applications]\nscreen-keyboard-enabled=true\n"
            .write(toFile: settings + "/keyfile", atomically: true, encoding: .utf8)

        let (server, socket) = try WlrootsKioskClientTests.startKiosk(runtime, recording)
        defer { server.stop() }
        let environment = ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket, "HOME": runtime]
        // squeekboard needs a D-Bus session bus (it serves sm.puri.OSK0 there).
        let bus = try Background("/usr/bin/dbus-daemon", ["--session", "--nofork", "--address=unix:path=\(runtime)/bus"],
                                 environment: [:], log: runtime + "/dbus.log")
        defer { bus.stop() }
        try #require(bus.waitFor(timeout: 10) { _ in FileManager.default.fileExists(atPath: runtime + "/bus") } != nil,
                     "no D-Bus session bus:\n\(bus.text)")
        let keyboard = try Background("/usr/bin/squeekboard", [],
                                      environment: environment.merging(["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(runtime)/bus",
                                                                        "GSETTINGS_BACKEND": "keyfile",
                                                                        "XDG_CONFIG_HOME": runtime + "/config",
                                                                        "NO_AT_BRIDGE": "1", "GTK_A11Y": "none"]) { $1 },
                                      log: runtime + "/squeekboard.log")
        defer { keyboard.stop() }
        try #require(server.waitFor(timeout: 30) { $0.contains("input method") && $0.contains("virtual keyboard") } != nil,
                     "squeekboard did not start:\n\(server.text)\nsqueekboard:\n\(keyboard.text)")
        let app = try Self.startEntryApp(runtime: runtime, environment: environment)
        defer { app.stop() }
        try Self.waitForReplay(server, app, typing: word)
        let kiosk = server.text
        let lines = Self.lines

        #expect(lines(app.text, "text:").last == "text:" + word,
                "gtk:\n\(app.text)\nkiosk:\n\(kiosk)\nsqueekboard:\n\(keyboard.text.suffix(3000))")
        #expect(kiosk.contains("text input enabled"))
        #expect(kiosk.contains("panel mapped osk at 0,360 1280x360"))
        // Each letter came through the relay, as the input method's text.
        #expect(lines(kiosk, "input method text ").map { String($0.dropFirst("input method text ".count)) }.joined() == word,
                "kiosk:\n\(kiosk)")
        #expect(lines(kiosk, "deliver keyboard enter").count == 1)
        #expect(lines(kiosk, "deliver keyboard leave").isEmpty)
        #expect(lines(app.text, "window active: ") == ["window active: True"], "gtk:\n\(app.text)")
    }
}
