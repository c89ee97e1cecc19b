import Foundation
import SeatKitReplay
import Testing

/// GTK4 popups by touch under the wlroots kiosk: each xdg_popup is a SeatKit surface (a
/// child of its parent's, where wlroots draws it) with SeatKit's popup grab, so a replayed
/// tap opens a Gtk.DropDown and a second one chooses an item, a tap outside dismisses it
/// without reaching the app, and a long press (the kiosk's long-press-as-secondary-click
/// policy) opens a Gtk.PopoverMenu whose item a tap chooses. Checked in what the app printed.
@Suite(.serialized) struct WlrootsKioskPopupTests {
    /// A dropdown (Apple, Banana, Cherry) at the window's top-left, and below it an area whose
    /// secondary button opens a menu (Copy, Paste, Delete); it prints "chosen ITEM". Large
    /// rows (80 px) keep the taps' targets wide.
    static let popupScript = #"""
    import gi
    gi.require_version("Gtk", "4.0")
    gi.require_version("Gdk", "4.0")
    from gi.repository import Gdk, Gio, Gtk

    CSS = b"""
    * { font-size: 24px; }
    dropdown > button { min-height: 80px; }
    popover listview row, popover modelbutton { min-height: 80px; }
    """

    def say(text):
        print(text, flush=True)

    def activate(app):
        provider = Gtk.CssProvider()
        provider.load_from_data(CSS)
        Gtk.StyleContext.add_provider_for_display(Gdk.Display.get_default(), provider,
                                                  Gtk.STYLE_PROVIDER_PRIORITY_USER)
        win = Gtk.ApplicationWindow(application=app, title="seatkit-popups")
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
        dropdown = Gtk.DropDown.new_from_strings(["Apple", "Banana", "Cherry"])
        dropdown.set_halign(Gtk.Align.START)
        dropdown.set_size_request(400, -1)
        dropdown.set_margin_start(40)
        dropdown.set_margin_top(40)
        dropdown.connect("notify::selected",
                         lambda d, _: say("chosen " + d.get_selected_item().get_string()))
        box.append(dropdown)

        area = Gtk.Label(label="context menu here")
        area.set_vexpand(True)
        menu = Gio.Menu()
        for name in ["Copy", "Paste", "Delete"]:
            action = Gio.SimpleAction.new(name.lower(), None)
            action.connect("activate", lambda a, p, n=name: say("chosen " + n))
            app.add_action(action)
            menu.append(name, "app." + name.lower())
        popover = Gtk.PopoverMenu.new_from_model(menu)
        popover.set_parent(area)
        popover.set_has_arrow(False)
        popover.set_halign(Gtk.Align.START)
        popover.connect("show", lambda p: say("menu shown"))
        click = Gtk.GestureClick(button=Gdk.BUTTON_SECONDARY)
        def pressed(gesture, n, x, y):
            say("secondary press")
            rect = Gdk.Rectangle()
            rect.x, rect.y, rect.width, rect.height = int(x), int(y), 1, 1
            popover.set_pointing_to(rect)
            popover.popup()
        click.connect("pressed", pressed)
        area.add_controller(click)
        # GTK's own long press (500 ms, before the kiosk's 600 ms): never both.
        hold = Gtk.GestureLongPress()
        hold.connect("pressed", lambda g, x, y: say("gtk long press"))
        area.add_controller(hold)
        box.append(area)
        win.set_child(box)
        win.present()
        say("presented")

    app = Gtk.Application(application_id="org.seatkit.WlrootsPopups")
    app.connect("activate", activate)
    app.run([])
    """#

    static let gtkEnvironment = ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo", "GTK_A11Y": "none",
                                 "NO_AT_BRIDGE": "1", "LANG": "C.UTF-8"]

    /// Runs the popup app in the kiosk fed by `script`; the kiosk's and the app's logs once
    /// the replay finished and `done` holds for the app's output (bounded waits).
    private func run(_ script: FrameScript, options: [String] = [],
                     until done: @escaping (String) -> Bool) throws -> (kiosk: String, app: String) {
        let runtime = try temporaryDirectory("seatkit-wlr-popups")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let recording = runtime + "/popups.yml"
        try WlrootsKioskBehaviourTests.write(script, to: recording)
        let path = runtime + "/popups.py"
        try Self.popupScript.write(toFile: path, atomically: true, encoding: .utf8)
        let (server, socket) = try WlrootsKioskClientTests.startKiosk(runtime, recording, options: options)
        defer { server.stop() }
        let app = try Background("/usr/bin/python3", [path],
                                 environment: Self.gtkEnvironment.merging(["XDG_RUNTIME_DIR": runtime,
                                                                           "WAYLAND_DISPLAY": socket,
                                                                           "HOME": runtime]) { $1 },
                                 log: runtime + "/gtk.log")
        defer { app.stop() }
        try #require(server.waitFor(timeout: 60) { $0.contains("replay finished") } != nil,
                     "the replay did not finish:\n\(server.text)\ngtk:\n\(app.text)")
        _ = app.waitFor(timeout: 10, done)
        return (server.text, app.text)
    }

    private func lines(_ text: String, _ prefix: String) -> [String] {
        text.components(separatedBy: "\n").filter { $0.hasPrefix(prefix) }
    }

    /// The popup's origin, from the kiosk's "popup mapped at X,Y WxH" lines.
    private func popupOrigins(_ kiosk: String) -> [(Double, Double)] {
        lines(kiosk, "popup mapped at ").map { line in
            let xy = line.dropFirst("popup mapped at ".count).prefix { $0 != " " }.split(separator: ",")
            return (Double(xy[0]) ?? .nan, Double(xy[1]) ?? .nan)
        }
    }

    @Test func aDropDownOpensByATapAnItemIsChosenByATapAndATapOutsideDismissesIt() throws {
        var s = FrameScript(startingAt: 0)
        s.time = 1_500_000  // GTK's first frame
        let tap = { (s: inout FrameScript, x: Double, y: Double, id: Int32) in
            WlrootsKioskBehaviourTests.press(&s, x, y, id: id, hold: 80_000, after: 2_500_000)
        }
        tap(&s, 200, 80, 1)   // opens the dropdown's list (a popup with a grab)
        tap(&s, 900, 600, 2)  // outside the list: dismisses it, reaches no app
        tap(&s, 200, 80, 3)   // opens it again
        tap(&s, 200, 368, 4)  // the third row of the list: Cherry
        let (kiosk, app) = try run(s) { $0.contains("chosen ") }

        #expect(lines(app, "chosen ") == ["chosen Cherry"], "gtk:\n\(app)\nkiosk:\n\(kiosk)")
        #expect(lines(kiosk, "popup mapped at ").count == 2 && lines(kiosk, "popup mapped at ").allSatisfy { $0.hasSuffix("with a grab") },
                "kiosk:\n\(kiosk)")
        #expect(lines(kiosk, "popup dismissed").count == 1, "the tap outside dismissed the list")
        // The tap outside was the grab's: three touches reached a client, not four.
        let downs = lines(kiosk, "deliver touch down ")
        #expect(downs.count == 3, "\(downs)")
        // The choosing tap reached the popup's own surface, at its point in the popup.
        if let origin = popupOrigins(kiosk).last, let last = downs.last {
            let point = last.split(separator: " ").suffix(2).compactMap { Double($0) }
            #expect(point.count == 2 && abs(point[0] - (200 - origin.0)) < 0.5 && abs(point[1] - (368 - origin.1)) < 0.5,
                    "\(last) at popup origin \(origin)")
        }
    }

    @Test func aLongPressOpensAContextMenuWhoseItemATapChooses() throws {
        var s = FrameScript(startingAt: 0)
        s.time = 1_500_000
        // A long press: the kiosk holds the touch back from the app and right-clicks there.
        WlrootsKioskBehaviourTests.press(&s, 400, 400, id: 1, hold: 1_000_000, after: 2_500_000)
        // The menu opens at the finger (Copy, Paste, Delete, 80 px each): Paste.
        WlrootsKioskBehaviourTests.press(&s, 457, 527, id: 2, hold: 80_000, after: 1_000_000)
        let (kiosk, app) = try run(s) { $0.contains("chosen ") }

        #expect(lines(kiosk, "secondary click at 400,400").count == 1, "kiosk:\n\(kiosk)")
        #expect(app.contains("secondary press") && app.contains("menu shown"), "gtk:\n\(app)\nkiosk:\n\(kiosk)")
        #expect(lines(kiosk, "popup mapped at ").count == 1 && lines(kiosk, "popup mapped at ")[0].hasSuffix("with a grab"))
        #expect(lines(app, "chosen ") == ["chosen Paste"], "gtk:\n\(app)\nkiosk:\n\(kiosk)")
        // GTK saw no touch during the press, so its own 500 ms long press never fired.
        #expect(!app.contains("gtk long press"), "gtk:\n\(app)")
        #expect(lines(kiosk, "deliver touch down ").count == 1, "only the tap on Paste reached GTK as a touch")
    }

    /// `--long-press app`: GTK binds wl_touch, so its own long press wins and the kiosk's
    /// is off for it: GTK prints its long press, and no secondary click is made.
    @Test func withLongPressAppAGTKAppsOwnLongPressWinsAndTheKioskMakesNoClick() throws {
        var s = FrameScript(startingAt: 0)
        s.time = 1_500_000
        WlrootsKioskBehaviourTests.press(&s, 400, 400, id: 1, hold: 1_000_000, after: 1_000_000)
        let (kiosk, app) = try run(s, options: ["--long-press", "app"]) { $0.contains("gtk long press") }

        #expect(app.contains("gtk long press"), "gtk:\n\(app)\nkiosk:\n\(kiosk)")
        #expect(lines(kiosk, "secondary click at").isEmpty, "kiosk:\n\(kiosk)")
        #expect(!app.contains("secondary press"), "gtk:\n\(app)")
        // The touch reached GTK as it happened: down, then up a second later (not held back).
        #expect(lines(kiosk, "deliver touch down ").count == 1 && lines(kiosk, "deliver touch up ").count == 1,
                "kiosk:\n\(kiosk)")
    }
}
