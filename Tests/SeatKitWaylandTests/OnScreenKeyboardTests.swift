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

    /// Taps `word` letter by letter, each once the app showed the text so far. A letter that
    /// never arrives fails with what the kiosk and the keyboard printed, the app's wire last.
    ///
    /// A keyboard may replace its panel while a tap is on its way (squeekboard destroys its
    /// layer surface and makes a new one when it reloads its layout after the first key): a
    /// tap the kiosk routed while no panel was there is the keyboard's loss, not the kiosk's.
    /// So when the kiosk reports a layer surface unmapped since the tap and the letter has not
    /// come, the tap is repeated once the panel is mapped again (at most twice per letter).
    static func tapWord(_ word: String, on session: KioskSession, app: ClientProcess, keyboard: ClientProcess,
                        key: (Character) -> (x: Double, y: Double), sourceLocation: SourceLocation = #_sourceLocation) throws {
        var typed = ""
        var touchID = 0
        let unmaps = { session.log.text.components(separatedBy: "layer surface unmapped").count - 1 }
        for letter in word {
            let (x, y) = key(letter)
            typed.append(letter)
            let expected = "text:" + typed
            var arrived = false
            var retries = 0
            while !arrived {
                _ = session.log.wait(timeout: .milliseconds(5)) { _ in false }
                let unmapsBefore = unmaps()
                touchID += 1
                session.send(Script.tap(x, y, id: touchID))
                let deadline = ContinuousClock.now + KioskSession.timeout
                while !arrived && ContinuousClock.now < deadline {
                    arrived = app.output.wait(timeout: .milliseconds(500)) { $0.contains(expected) }
                    _ = session.log.wait(timeout: .milliseconds(5)) { _ in false }
                    if !arrived && unmaps() > unmapsBefore && retries < 2 { break }
                }
                if arrived { break }
                guard unmaps() > unmapsBefore, retries < 2 else { break }
                retries += 1
                try session.log.require({ text in
                    guard let shown = text.range(of: " mapped on top at ", options: .backwards) else { return false }
                    guard let hidden = text.range(of: "layer surface unmapped", options: .backwards) else { return true }
                    return shown.lowerBound > hidden.lowerBound
                }, "the keyboard's panel never came back", sourceLocation: sourceLocation)
                // The tap may still have reached the old panel: its letter would come now.
                arrived = app.output.wait(timeout: .seconds(1)) { $0.contains(expected) }
            }
            guard arrived else {
                _ = keyboard.output.wait(timeout: .milliseconds(200)) { _ in false }
                try #require(Bool(false), """
                    "\(expected)" never came after a tap at \(x),\(y); the kiosk printed:
                    \(session.log.text.suffix(6000))
                    the keyboard printed:
                    \(keyboard.output.lines.filter { !$0.contains("Tried file") && !$0.contains("Missing resource") && !$0.isEmpty }.suffix(60).joined(separator: "\n"))
                    the app's text input and keyboard:
                    \(app.output.lines.filter { $0.contains("text_input") || $0.contains("text:") || $0.contains("wl_keyboard") || $0.contains("wl_touch") }.suffix(60).joined(separator: "\n"))
                    """, sourceLocation: sourceLocation)
                return
            }
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
        try Self.tapWord("typewriter", on: session, app: app, keyboard: wvkbd, key: Self.wvkbdKey)
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
        let squeekboard = try session.launch("squeekboard", [], debug: true, environment: [
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
        try Self.tapWord("typewriter", on: session, app: app, keyboard: squeekboard, key: { (Self.wvkbdKey($0).x, 405) })
        #expect(session.log.lines.filter { $0.hasPrefix("focus ") }.count == 1, "\(session.log.text)")
    }
}
