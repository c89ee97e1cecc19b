import Foundation
import Testing

/// A GTK4 app (python3-gi, cairo renderer) under the kiosk: a button, an entry, a dropdown
/// and a menu button. It prints what it receives, and where its widgets are in its
/// surface's coordinates.
enum GTKApp {
    static let script = #"""
    import sys, gi
    gi.require_version("Gtk", "4.0")
    from gi.repository import Gtk, GLib

    def say(*a):
        print(*a, flush=True)

    def activate(app):
        win = Gtk.ApplicationWindow(application=app, title="seatkit-gtk")
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
        button = Gtk.Button(label="Press")
        button.connect("clicked", lambda b: say("clicked"))
        entry = Gtk.Entry()
        entry.connect("changed", lambda e: say("text:" + e.get_text()))
        dropdown = Gtk.DropDown.new_from_strings(["alpha", "beta", "gamma"])
        dropdown.connect("notify::selected", lambda d, p: say("selected:%d" % d.get_selected()))
        menu = Gtk.MenuButton(label="Menu")
        pop = Gtk.Popover()
        item = Gtk.Button(label="Item")
        item.connect("clicked", lambda b: (say("menu-item"), pop.popdown()))
        pop.set_child(item)
        pop.connect("show", lambda p: say("popover-shown"))
        pop.connect("closed", lambda p: say("popover-closed"))
        menu.set_popover(pop)
        for w in (button, entry, dropdown, menu):
            box.append(w)
        win.set_child(box)
        win.present()
        def report():
            sx, sy = win.get_surface_transform()
            for name, w in (("button", button), ("entry", entry), ("dropdown", dropdown), ("menu", menu)):
                ok, rect = w.compute_bounds(win)
                say("widget %s %d %d %d %d" % (name, rect.get_x() + sx, rect.get_y() + sy, rect.get_width(), rect.get_height()))
            say("ready")
            return False
        GLib.timeout_add(200, report)

    GLib.set_prgname("seatkit-gtk")
    app = Gtk.Application(application_id="org.seatkit.Test")
    app.connect("activate", activate)
    app.run([])
    """#

    struct Widget {
        var x, y, width, height: Double
        var centerX: Double { x + width / 2 }
        var centerY: Double { y + height / 2 }
    }

    /// Starts the app (WAYLAND_DEBUG on: popups' configures are read from it) and waits
    /// until it reported its widgets.
    static func launch(in session: KioskSession) throws -> (ClientProcess, [String: Widget]) {
        let path = session.runtimeDirectory + "/gtk-app.py"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let app = try session.launch("/usr/bin/python3", [path], debug: true,
                                     environment: ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo", "GTK_A11Y": "none",
                                                   "NO_AT_BRIDGE": "1"])
        try app.output.require({ $0.contains("\nready") || $0.hasPrefix("ready") }, "the GTK app never reported its widgets")
        var widgets: [String: Widget] = [:]
        for line in app.output.lines where line.hasPrefix("widget ") {
            let f = line.split(separator: " ")
            widgets[String(f[1])] = Widget(x: Double(f[2])!, y: Double(f[3])!, width: Double(f[4])!, height: Double(f[5])!)
        }
        return (app, widgets)
    }

    /// The newest xdg_popup.configure the app received: x, y, width, height relative to its
    /// parent's window geometry.
    static func lastPopupConfigure(_ output: String) -> (x: Double, y: Double, width: Double, height: Double)? {
        guard let line = output.split(separator: "\n").last(where: { $0.contains("xdg_popup@") && $0.contains(".configure(") }),
              let open = line.firstIndex(of: "(") else { return nil }
        let numbers = line[line.index(after: open)...].dropLast().split(separator: ",").compactMap {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard numbers.count == 4 else { return nil }
        return (numbers[0], numbers[1], numbers[2], numbers[3])
    }

    /// Waits until the kiosk shows the `nth` popup of the app, and returns where (in the
    /// toplevel's surface space: the popup's parent).
    static func waitForPopup(_ session: KioskSession, nth: Int) throws -> (x: Double, y: Double, width: Double, height: Double) {
        func popups(_ text: String) -> [Substring] { text.split(separator: "\n").filter { $0.hasPrefix("popup of seatkit-gtk[") } }
        try session.log.require({ popups($0).count >= nth }, "the kiosk never showed popup \(nth)")
        // "popup of seatkit-gtk[42] at 0,114 size 1920x126"
        let fields = popups(session.log.text)[nth - 1].split(separator: " ")
        let origin = fields[4].split(separator: ",").compactMap { Double($0) }
        let size = fields[6].split(separator: "x").compactMap { Double($0) }
        return (origin[0], origin[1], size[0], size[1])
    }

    /// The toplevel's window geometry origin (set_window_geometry), surface-local.
    static func windowGeometryOrigin(_ output: String) -> (x: Double, y: Double) {
        guard let line = output.split(separator: "\n").last(where: { $0.contains(" -> xdg_surface@") && $0.contains(".set_window_geometry(") }),
              let open = line.firstIndex(of: "(") else { return (0, 0) }
        let numbers = line[line.index(after: open)...].dropLast().split(separator: ",").compactMap {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        return numbers.count == 4 ? (numbers[0], numbers[1]) : (0, 0)
    }
}

extension EndToEndTests {
    /// The GTK4 button and entry: a click clicks, a tap clicks, typed keys reach the entry.
    @Test func gtkButtonAndEntryTakeClicksTapsAndTyping() throws {
        let session = try KioskSession(windowOptions: [])
        try session.addDevices()
        let (app, widgets) = try GTKApp.launch(in: session)
        let button = try #require(widgets["button"]), entry = try #require(widgets["entry"])
        session.send([Script.move(button.centerX, button.centerY)] + Script.click())
        try app.output.require("\nclicked")
        session.send(Script.tap(button.centerX, button.centerY))
        try app.output.require({ $0.components(separatedBy: "\nclicked").count == 3 }, "the tap did not click")
        session.send([Script.move(entry.centerX, entry.centerY)] + Script.click() + Script.type([35, 18]))  // h, e
        try app.output.require("text:he")
    }

    /// A GTK4 dropdown opens as an xdg_popup placed below it; an item is chosen by tap; the
    /// menu opens, a click outside dismisses it (and clicks nothing), its item is chosen by
    /// click; the app keeps taking clicks afterwards.
    @Test func gtkDropdownAndMenuOpenAsPopupsAndClickOutsideDismisses() throws {
        let session = try KioskSession(windowOptions: [])
        try session.addDevices()
        let (app, widgets) = try GTKApp.launch(in: session)
        let button = try #require(widgets["button"]), dropdown = try #require(widgets["dropdown"]), menu = try #require(widgets["menu"])
        let geometry = GTKApp.windowGeometryOrigin(app.output.text)

        // The dropdown, by tap: its list is a popup placed by its positioner, below it.
        session.send(Script.tap(dropdown.centerX, dropdown.centerY))
        let list = try GTKApp.waitForPopup(session, nth: 1)
        try app.output.require({ GTKApp.lastPopupConfigure($0) != nil }, "the app got no xdg_popup.configure")
        let configured = try #require(GTKApp.lastPopupConfigure(app.output.text))
        #expect(configured.y + geometry.y >= dropdown.y + dropdown.height - 1, "the list opens below the dropdown: \(configured), \(dropdown)")
        #expect(list.width > 0 && list.height > 0)
        let mark = app.output.mark
        session.send(Script.tap(list.x + list.width / 2, list.y + list.height / 2))
        try app.output.require("selected:", after: mark)
        // The list closes itself; a click while it still grabbed would only dismiss it.
        try session.log.require("popup closed")

        // The menu, by click; a click outside (on the button) dismisses it and clicks nothing.
        session.send([Script.move(menu.centerX, menu.centerY)] + Script.click())
        _ = try GTKApp.waitForPopup(session, nth: 2)
        try app.output.require("popover-shown")
        let clicksBefore = app.output.text.components(separatedBy: "\nclicked").count
        session.send([Script.move(button.centerX, button.centerY)] + Script.click())
        try app.output.require("popover-closed")
        try app.output.require({ $0.contains("xdg_popup@") && $0.contains(".popup_done()") }, "no popup_done")

        // The menu again; its item chosen by click.
        session.send([Script.move(menu.centerX, menu.centerY)] + Script.click())
        let popup = try GTKApp.waitForPopup(session, nth: 3)
        session.send([Script.move(popup.x + popup.width / 2, popup.y + popup.height / 2)] + Script.click())
        try app.output.require("menu-item")
        // The menu closes itself when its item is chosen; a click while it still grabbed would
        // only dismiss it (popup_done), as a click outside an open menu should. Wait for the
        // kiosk to see the third popup go, as for the dropdown's list above.
        try session.log.require({ $0.components(separatedBy: "popup closed").count - 1 >= 3 }, "the menu did not close after its item")

        // And the app still takes clicks.
        #expect(app.output.text.components(separatedBy: "\nclicked").count == clicksBefore, "the dismissing click reached the button")
        session.send([Script.move(button.centerX, button.centerY)] + Script.click())
        try app.output.require({ $0.components(separatedBy: "\nclicked").count == clicksBefore + 1 }, "the app ignores clicks after the menus")
    }
}

extension Script {
    /// Holds `modifiers` (evdev codes) while `key` is pressed and released.
    static func combo(_ modifiers: [Int], _ key: Int) -> [String] {
        modifiers.map { #"{"type": "key", "device": 1, "key": \#($0), "state": "pressed"}"# } + type([key])
            + modifiers.reversed().map { #"{"type": "key", "device": 1, "key": \#($0), "state": "released"}"# }
    }
}

extension EndToEndTests {
    /// Copy in GTK4 (Ctrl+A selects, which sets the primary selection; Ctrl+C the
    /// clipboard), paste in foot (Ctrl+Shift+V, then Shift+Insert for the primary): the text
    /// goes from one client to the other through the kiosk's data devices, twice.
    @Test func textCopiedInGTKIsPastedInFootFromTheClipboardAndThePrimarySelection() throws {
        let session = try KioskSession()
        try session.addDevices()
        let (app, widgets) = try GTKApp.launch(in: session)
        let gtkWindow = try session.waitForWindow("seatkit-gtk")
        let result = session.runtimeDirectory + "/pasted"
        // Raw mode: pasted bytes reach the shell as they come, with no Enter (pastes are
        // asynchronous; a key typed after one could overtake it).
        let foot = try session.launch("foot", ["--", "sh", "-c", "stty -icanon -echo; exec cat > \(result)"],
                                      debug: true)
        let footWindow = try session.waitForWindow("foot")
        #expect(footWindow.x >= gtkWindow.x + gtkWindow.width)

        let entry = try #require(widgets["entry"])
        session.send([Script.move(entry.centerX, entry.centerY)] + Script.click() + Script.type([35, 18, 38, 38, 24]))  // hello
        try app.output.require("text:hello")
        session.send(Script.combo([29], 30) + Script.combo([29], 46))  // Ctrl+A, Ctrl+C
        // GTK sets both selections (in its own time) before focus moves on.
        try app.output.require({ $0.contains(" -> wl_data_device@") && $0.contains(".set_selection(wl_data_source@") },
                               "GTK never set the clipboard")
        try app.output.require({ $0.contains(" -> zwp_primary_selection_device_v1@") && $0.contains(".set_selection(zwp_primary_selection_source_v1@") },
                               "GTK never set the primary selection")
        // Focus foot by a click, paste the clipboard, then the primary selection.
        session.send([Script.move(footWindow.x + 50, footWindow.y + 50)] + Script.click()
            + Script.combo([29, 42], 47))
        try foot.output.require({ $0.contains("wl_data_offer@") && $0.contains(".receive(") }, "foot never asked for the clipboard")
        #expect(Self.waitForFile(result, bytes: 5, session: session) == "hello", "the clipboard paste")
        session.send(Script.combo([42], 110))
        try foot.output.require({ $0.contains("zwp_primary_selection_offer_v1@") && $0.contains(".receive(") }, "foot never asked for the primary selection")
        let text = Self.waitForFile(result, bytes: 10, session: session)
        #expect(text == "hellohello", "foot's shell got \(text.debugDescription)")
    }
}

extension EndToEndTests {
    /// The file's text once it has `bytes` bytes, or what it has when the wait times out.
    static func waitForFile(_ path: String, bytes: Int, session: KioskSession) -> String {
        let deadline = ContinuousClock.now + KioskSession.timeout
        var text = ""
        while ContinuousClock.now < deadline {
            text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if text.utf8.count >= bytes { break }
            _ = session.log.wait(timeout: .milliseconds(50)) { _ in false }
        }
        return text
    }
}

extension EndToEndTests {
    /// wtype (zwp_virtual_keyboard_v1, its own keymap) types into a focused GTK4 entry.
    @Test func wtypeTypesIntoAGTKEntry() throws {
        let session = try KioskSession(windowOptions: [])
        try session.addDevices()
        let (app, widgets) = try GTKApp.launch(in: session)
        let entry = try #require(widgets["entry"])
        session.send([Script.move(entry.centerX, entry.centerY)] + Script.click())
        try app.output.require({ $0.contains("wl_keyboard@") && $0.contains(".enter(") }, "GTK never got keyboard focus")
        _ = try session.launch("wtype", ["ça va"])
        try app.output.require("text:ça va")
    }
}

extension EndToEndTests {
    /// An input-method client (zwp_input_method_v2, written by hand) is activated when a
    /// GTK4 entry takes focus (zwp_text_input_v3) and its committed string lands in it.
    @Test func anInputMethodsCommitReachesTheFocusedGTKEntry() throws {
        let session = try KioskSession(windowOptions: [])
        try session.addDevices()
        let (app, widgets) = try GTKApp.launch(in: session)
        let entry = try #require(widgets["entry"])
        session.send([Script.move(entry.centerX, entry.centerY)] + Script.click())
        try app.output.require({ $0.contains(" -> zwp_text_input_v3@") && $0.contains(".enable()") }, "GTK never enabled text input")

        let wire = try WireClient(runtimeDirectory: session.runtimeDirectory, socket: session.socket)
        try wire.roundTripRegistry()
        let seat = try wire.bind("wl_seat", version: 8)
        let manager = try wire.bind("zwp_input_method_manager_v2", version: 1)
        let method = wire.newID()
        wire.send(manager, 0, [seat, method])  // get_input_method
        var dones: UInt32 = 0
        var activated = false
        _ = try #require(wire.read(until: { message in
            guard message.object == method else { return false }
            if message.opcode == 0 { activated = true }
            if message.opcode == 5 { dones += 1 }
            return activated && message.opcode == 5
        }), "the input method was never activated")
        wire.send(method, 0, ["ça marche"])  // commit_string
        wire.send(method, 3, [dones])  // commit
        try app.output.require("text:ça marche")

        // A second input method on the seat is unavailable from the start.
        let other = wire.newID()
        wire.send(manager, 0, [seat, other])
        #expect(wire.read(until: { $0.object == other && $0.opcode == 6 }) != nil, "no unavailable for a second input method")
    }
}

extension EndToEndTests {
    /// On a scale-2 output GTK4 renders at scale 2 too, and a click lands on its widgets in
    /// logical coordinates.
    @Test func gtkOnAScale2OutputRendersAtScale2() throws {
        let session = try KioskSession(inputOptions: ["--script", "-", "--scale", "2"], windowOptions: [])
        try session.addDevices()
        let (app, widgets) = try GTKApp.launch(in: session)
        try app.output.require({ $0.contains(" -> wl_surface@") && $0.contains(".set_buffer_scale(2)") }, "GTK never used scale 2")
        let window = try session.waitForWindow("seatkit-gtk")
        #expect(window.width == 960 && window.height == 540, "\(window)")
        let button = try #require(widgets["button"])
        session.send([Script.move(button.centerX, button.centerY)] + Script.click())
        try app.output.require("\nclicked")
        // Its dropdown list, a popup, is told its output too.
        let dropdown = try #require(widgets["dropdown"])
        session.send([Script.move(dropdown.centerX, dropdown.centerY)] + Script.click())
        _ = try GTKApp.waitForPopup(session, nth: 1)
        try app.output.require({ $0.components(separatedBy: ".enter(wl_output@").count >= 3 }, "the popup's surface got no wl_surface.enter")
    }
}
