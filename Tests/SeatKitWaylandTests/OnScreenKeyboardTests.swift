import Foundation
import Testing

/// Real on-screen keyboards on the Swift kiosk (examples/kiosk, a 1280x720 output, windows
/// fullscreen): their panels are layer-shell surfaces on the top layer, above the GTK4 app,
/// and what is tapped on them reaches the app's entry while keyboard focus stays with the app.
extension EndToEndTests {
    /// wvkbd-mobintl 0.12's top letter row ("qwertyuiop") with its height pinned to 240 px
    /// (-H and -L) on a 1280x720 output: six rows of 40 px from y 480, the third one
    /// (y 560-600); keys 1280/11 px wide after a half-key indent, key i's centre at
    /// (i + 1) * 1280 / 11 (as in the wlroots kiosk's test).
    static func wvkbdKey(_ letter: Character) -> (x: Double, y: Double) {
        let i = Array("qwertyuiop").firstIndex(of: letter)!
        return (Double(i + 1) * 1280 / 11, 580)
    }

    /// The GTK app's window mapped (named by its app id, or its title before GTK set one).
    static func waitForGTKWindow(_ session: KioskSession) throws {
        try session.log.require({ $0.contains("mapped seatkit-gtk[") || $0.contains("mapped org.seatkit.Test[") }, "the GTK app never mapped")
    }

    /// Taps `word` letter by letter, each once the app showed the text so far.
    static func tapWord(_ word: String, on session: KioskSession, app: ClientProcess, key: (Character) -> (x: Double, y: Double),
                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        var typed = ""
        for (n, letter) in word.enumerated() {
            let (x, y) = key(letter)
            session.send(Script.tap(x, y, id: n + 1))
            typed.append(letter)
            try app.output.require("text:" + typed, sourceLocation: sourceLocation)
        }
    }

    /// wvkbd (layer shell, virtual keyboard): its panel maps at the bottom of the output;
    /// taps on it type into the GTK4 entry, whose window never loses keyboard focus.
    @Test func wvkbdOnTheSwiftKioskTypesIntoAGTK4Entry() throws {
        let session = try KioskSession(windowOptions: ["--size", "1280x720"])
        try session.addDevices()
        let wvkbd = try session.launch("wvkbd-mobintl", ["-H", "240", "-L", "240"])
        try session.log.require({ $0.contains("layer surface wlroots mapped on top at 0,480 size 1280x240") },
                                "wvkbd's panel did not map: \(wvkbd.output.text)")
        let (app, widgets) = try GTKApp.launch(in: session)
        try Self.waitForGTKWindow(session)
        let entry = try #require(widgets["entry"])
        session.send([Script.move(entry.centerX, entry.centerY)] + Script.click())
        try Self.tapWord("typewriter", on: session, app: app, key: Self.wvkbdKey)
        // Focus went to the app once (when it mapped), never to the keyboard's panel (the
        // kiosk's click-to-focus found it unable to become first responder).
        #expect(session.log.lines.filter { $0.hasPrefix("focus ") }.count == 1, "\(session.log.text)")
    }

    /// squeekboard 1.21 (layer shell, input-method-v2): a click on the GTK4 entry enables
    /// its text input, squeekboard shows its panel (the lower half of the output), and the
    /// text of each key tapped reaches the entry through the input method.
    @Test func squeekboardOnTheSwiftKioskTypesIntoAGTK4Entry() throws {
        let session = try KioskSession(windowOptions: ["--size", "1280x720"])
        try session.addDevices()
        let runtime = session.runtimeDirectory
        // squeekboard shows itself only when the screen keyboard is enabled in GSettings, and
        // serves sm.puri.OSK0 on a D-Bus session bus.
        let settings = runtime + "/config/glib-2.0/settings"
        try FileManager.default.createDirectory(atPath: settings, withIntermediateDirectories: true)
        try "[org/gnome/desktop/a11y/applications]\nscreen-keyboard-enabled=true\n"
            .write(toFile: settings + "/keyfile", atomically: true, encoding: .utf8)
        let bus = try session.launch("dbus-daemon", ["--session", "--nofork", "--print-address", "--address=unix:path=\(runtime)/bus"])
        try bus.output.require("unix:path=")
        let squeekboard = try session.launch("squeekboard", [], environment: [
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(runtime)/bus", "GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": runtime + "/config",
            "HOME": runtime, "NO_AT_BRIDGE": "1", "GTK_A11Y": "none",
        ])
        let (app, widgets) = try GTKApp.launch(in: session)
        try Self.waitForGTKWindow(session)
        let entry = try #require(widgets["entry"])
        // squeekboard may show its panel once at start and hide it, or still be showing it
        // when the click comes (then it stays): what counts is that after the click the panel
        // is shown, its last layer line a map.
        session.send([Script.move(entry.centerX, entry.centerY)] + Script.click())
        try session.log.require({ text in
            guard let shown = text.range(of: " mapped on top at 0,360 size 1280x360", options: .backwards) else { return false }
            guard let hidden = text.range(of: "layer surface unmapped", options: .backwards) else { return true }
            return shown.lowerBound > hidden.lowerBound
        }, "squeekboard's panel is not shown: \(squeekboard.output.text.suffix(2000))")
        // Its us layout's top row ("qwertyuiop") is at about y 405, keys placed as wvkbd's.
        try Self.tapWord("typewriter", on: session, app: app, key: { (Self.wvkbdKey($0).x, 405) })
        #expect(session.log.lines.filter { $0.hasPrefix("focus ") }.count == 1, "\(session.log.text)")
    }
}
