import Foundation
import Testing

/// xdg-activation-v1 with GTK 4.8, which asks for a token (quoting its latest button or touch
/// serial) and activates with it whenever a shown window is presented again
/// (`Gtk.Window.present`).
@Suite(.serialized) struct ActivationTests {
    static let app = #"""
    import gi, os, sys
    gi.require_version("Gtk", "4.0")
    from gi.repository import Gtk, GLib
    trigger = sys.argv[1]
    def say(*a): print(*a, flush=True)
    def activate(app):
        first = Gtk.ApplicationWindow(application=app, title="first")
        second = Gtk.ApplicationWindow(application=app, title="second")
        button = Gtk.Button(label="Present the second window")
        button.connect("clicked", lambda b: (say("presenting second"), second.present()))
        first.set_child(button)
        first.set_default_size(320, 200)
        second.set_default_size(160, 120)
        second.set_child(Gtk.Label(label="second"))
        first.present()
        second.present()
        def poll():
            if os.path.exists(trigger):
                os.remove(trigger)
                say("presenting first")
                first.present()
            return True
        GLib.timeout_add(20, poll)
    app = Gtk.Application(application_id="org.seatkit.Activation")
    app.connect("activate", activate)
    app.run([])
    """#

    /// The wl_surface (as `wl_surface@N`) GTK named in its latest xdg_activation_v1.activate.
    static func activatedSurface(_ debug: String) -> String? {
        guard let line = debug.split(separator: "\n").last(where: { $0.contains("xdg_activation_v1@") && $0.contains(".activate(") }),
              let range = line.range(of: "wl_surface@") else { return nil }
        return "wl_surface@" + line[range.upperBound...].prefix { $0.isNumber }
    }

    @Test func aTokenFromTheFocusedClientJustAfterAClickActivatesAndOneWithoutFocusOnlyAsksForAttention() throws {
        let session = try KioskSession()
        try session.addDevices()
        let path = session.runtimeDirectory + "/activation.py"
        let trigger = session.runtimeDirectory + "/present-first"
        try Self.app.write(toFile: path, atomically: true, encoding: .utf8)
        let gtk = try session.launch("/usr/bin/python3", [path, trigger], debug: true,
                                     environment: ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1"])
        // GTK maps its two windows in its own order: the first is the wider.
        let windows = [try session.waitForWindow("python3", nth: 1), try session.waitForWindow("python3", nth: 2)]
        let first = try #require(windows.max { $0.width < $1.width })

        // A click in the focused first window presents the second: activated, it gets focus.
        session.send([Script.move(first.x + first.width / 2, first.y + first.height / 2)] + Script.click())
        try gtk.output.require("presenting second")
        try gtk.output.require({ Self.activatedSurface($0) != nil }, "GTK never activated")
        let second = try #require(Self.activatedSurface(gtk.output.text))
        try session.log.require("activated \(second)")
        try gtk.output.require({ $0.contains("wl_keyboard@") && $0.contains(".enter(") && $0.split(separator: "\n").last { $0.contains(".enter(") && $0.contains("wl_keyboard@") }?.contains(second) == true },
                               "the second window never got keyboard focus")

        // wev takes focus by a click; GTK, now without focus, presents its first window on a
        // timer: it only asks for attention, and wev keeps focus.
        let wev = try session.launch("wev")
        let wevWindow = try session.waitForWindow("wev")
        session.send([Script.move(wevWindow.x + 20, wevWindow.y + 20)] + Script.click())
        try wev.output.require("wl_keyboard] enter:")
        let focused = wev.output.mark
        let before = session.log.mark
        FileManager.default.createFile(atPath: trigger, contents: Data())
        try gtk.output.require("presenting first")
        try session.log.require({ $0[before...].contains("urgent wl_surface@") }, "the refused activation was not reported")
        #expect(!session.log.text[before...].contains("activated"), "a client without focus activated a window")
        #expect(!wev.output.text[focused...].contains("wl_keyboard] leave"), "wev lost focus")
    }
}
