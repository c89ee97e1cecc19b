import Foundation
import Testing

/// The Swift compositor of Tests/OwnShellCompositor: its own wl_display, its own shell (C, with
/// its own xdg-shell protocol code, so that it links beside SeatKitWayland only because the
/// seat defines none of xdg-shell's symbols), and from SeatKit only the router, the seat,
/// the data device and a ClientSurfaceResponder per window, as EmbeddingInASwiftCompositor.md
/// says. Real clients get their input through it.
extension EndToEndTests {
    /// GTK4 (4.8 makes its seat only once the display has a wl_data_device_manager, which
    /// SeatKitWayland's DataDevice gives): a click and a tap click its button, typed keys
    /// reach its entry.
    @Test func gtkOnACompositorWithItsOwnXDGShellTakesClicksTapsAndTyping() throws {
        let session = try KioskSession(executable: "own-shell-compositor", windowOptions: [])
        try session.log.require("beside the compositor's own xdg_wm_base")
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

    /// wev (which crashes on a display without wl_data_device_manager) on the own-shell
    /// compositor: a click, a touch and two keys, each in surface-local coordinates, keys
    /// with the keymap the seat sent.
    @Test func wevOnACompositorWithItsOwnXDGShellGetsClicksTouchesAndKeys() throws {
        let session = try KioskSession(executable: "own-shell-compositor", windowOptions: [])
        try session.addDevices()
        let wev = try session.launch("wev")
        _ = try session.waitForWindow("wev")
        try wev.output.require("wl_keyboard] enter:")
        let start = wev.output.mark
        session.send([Script.move(100.5, 50.25)] + Script.click() + Script.tap(30, 40) + Script.type([30, 48]))  // a, b
        try wev.output.require("sym: b", after: start)
        try wev.output.require({ WevLog($0[start...]).events("wl_keyboard", "key").count == 4 }, "wev did not get four key events")
        let log = WevLog(wev.output.text[start...])
        #expect((log.events("wl_pointer", "enter") + log.events("wl_pointer", "motion")).contains { $0.hasSuffix("x, y: 100.500000, 50.250000") },
                "\(log.events("wl_pointer"))")
        #expect(log.events("wl_pointer", "button").count == 2)
        #expect(log.events("wl_touch", "down").first?.hasSuffix("id: 0; x, y: 30.000000, 40.000000") == true)
        #expect(log.events("wl_touch", "up").count == 1)
        let keys = log.events("wl_keyboard", "key")
        #expect(keys[0].contains("sym: a") && keys[2].contains("sym: b"))
    }

    /// At scale 2, GTK4's cursor surface is told (wl_surface.enter) that it is on the scale-2
    /// output, and GTK4 draws it at scale 2 (set_buffer_scale(2)); told nothing, it stays a
    /// 24-pixel cursor at scale 1.
    @Test func gtksCursorOnAScale2OutputEntersItAndIsDrawnAtScale2() throws {
        let session = try KioskSession(executable: "own-shell-compositor", windowOptions: ["--scale", "2"])
        try session.addDevices()
        let (app, widgets) = try GTKApp.launch(in: session)
        let button = try #require(widgets["button"])
        session.send([Script.move(button.centerX, button.centerY), Script.move(button.centerX + 1, button.centerY)])
        try session.log.require({ $0.contains("cursor wl_surface@") }, "GTK set no cursor")
        // "cursor wl_surface@N hotspot x,y" in the compositor's log.
        let line = try #require(session.log.lines.last { $0.hasPrefix("cursor wl_surface@") })
        let surface = String(line.split(separator: " ")[1])
        try app.output.require({ $0.contains("\(surface).enter(wl_output@") }, "the cursor surface \(surface) was told of no output")
        try app.output.require({ $0.contains("\(surface).set_buffer_scale(2)") }, "GTK drew its cursor at scale 1")
    }

    /// foot (which refuses to start without wl_subcompositor) on the own-shell compositor, over
    /// a GTK4 app: text typed and copied in GTK4 is pasted in foot's shell through
    /// SeatKitWayland's DataDevice, the clipboard offered to foot when it takes focus.
    @Test func textCopiedInGTKIsPastedInFootOnACompositorWithItsOwnXDGShell() throws {
        let session = try KioskSession(executable: "own-shell-compositor", windowOptions: [])
        try session.addDevices()
        let (app, widgets) = try GTKApp.launch(in: session)
        let entry = try #require(widgets["entry"])
        session.send([Script.move(entry.centerX, entry.centerY)] + Script.click() + Script.type([35, 18, 38, 38, 24]))  // hello
        try app.output.require("text:hello")
        session.send(Script.combo([29], 30) + Script.combo([29], 46))  // Ctrl+A, Ctrl+C
        try app.output.require({ $0.contains(" -> wl_data_device@") && $0.contains(".set_selection(wl_data_source@") },
                               "GTK never set the clipboard")
        // foot maps on top of GTK and takes keyboard focus; Ctrl+Shift+V pastes.
        let result = session.runtimeDirectory + "/pasted"
        let foot = try session.launch("foot", ["--", "sh", "-c", "stty -icanon -echo; exec cat > \(result)"], debug: true)
        _ = try session.waitForWindow("foot")
        try foot.output.require({ $0.contains("wl_keyboard@") && $0.contains(".enter(") }, "foot never got keyboard focus")
        session.send(Script.combo([29, 42], 47))
        try foot.output.require({ $0.contains("wl_data_offer@") && $0.contains(".receive(") }, "foot never asked for the clipboard")
        #expect(Self.waitForFile(result, bytes: 5, session: session) == "hello", "the clipboard paste")
    }
}
