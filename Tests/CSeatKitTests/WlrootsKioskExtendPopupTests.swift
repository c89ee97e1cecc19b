import Foundation
import SeatKitReplay
import Testing

/// Popups of an app spanning two outputs (`--outputs extend`, issue 24 goal 3): a GTK4
/// Gtk.DropDown's list opened on the second output, or reaching across from the first onto
/// it, takes touches and clicks there and is dismissed by one outside, as on one output. The
/// kiosk gives each popup a SeatKit surface on every output (a child of the app's slice
/// there) and one popup grab over all of them; before, the popup lived on the first
/// output's tree only, so its grab took the first touch or click on the second output as
/// one outside and closed the list. Checked in what GTK printed and the kiosk's log.
@Suite(.serialized) struct WlrootsKioskExtendPopupTests {
    /// Two 400 px dropdowns in a row: "wide" from x 1000 to 1400 of the window (across the
    /// boundary of two 1280 or 1024 px outputs), "right" from 1600 to 2000 (on the second output),
    /// each printing "chosen NAME ITEM". Large rows (80 px), as WlrootsKioskPopupTests'.
    static let script = #"""
    import gi
    gi.require_version("Gtk", "4.0")
    gi.require_version("Gdk", "4.0")
    from gi.repository import Gdk, Gtk

    CSS = b"""
    * { font-size: 24px; }
    dropdown > button { min-height: 80px; }
    popover listview row { min-height: 80px; }
    """

    def say(text):
        print(text, flush=True)

    def dropdown(name, margin):
        d = Gtk.DropDown.new_from_strings(["Apple", "Banana", "Cherry"])
        d.set_size_request(400, -1)
        d.set_valign(Gtk.Align.START)
        d.set_margin_start(margin)
        d.set_margin_top(40)
        d.connect("notify::selected", lambda d, _: say("chosen " + name + " " + d.get_selected_item().get_string()))
        return d

    def activate(app):
        provider = Gtk.CssProvider()
        provider.load_from_data(CSS)
        Gtk.StyleContext.add_provider_for_display(Gdk.Display.get_default(), provider,
                                                  Gtk.STYLE_PROVIDER_PRIORITY_USER)
        win = Gtk.ApplicationWindow(application=app, title="seatkit-extend-popups")
        row = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL)
        row.append(dropdown("wide", 1000))
        row.append(dropdown("right", 200))
        click = Gtk.GestureClick()
        click.connect("pressed", lambda g, n, x, y: say("window pressed at %d,%d" % (x, y)))
        row.add_controller(click)
        win.set_child(row)
        win.present()
        say("presented")

    app = Gtk.Application(application_id="org.seatkit.WlrootsExtendPopups")
    app.connect("activate", activate)
    app.run([])
    """#

    /// The window's "window pressed at X,Y" lines below the dropdowns (y 150 or more): a press
    /// on a dropdown reaches the row's gesture too; one outside a list must reach nothing.
    static func pressesBelowTheDropdowns(_ gtk: String) -> [String] {
        lines(gtk, "window pressed at ").filter { line in
            (line.split(separator: ",").last.flatMap { Double($0) } ?? 0) >= 150
        }
    }

    static func lines(_ text: String, _ prefix: String) -> [String] {
        text.components(separatedBy: "\n").filter { $0.hasPrefix(prefix) }
    }

    /// Starts the GTK app against `socket`; its log.
    static func startApp(_ runtime: String, _ socket: String) throws -> Background {
        let path = runtime + "/extend-popups.py"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        return try Background("/usr/bin/python3", [path],
                              environment: WlrootsKioskPopupTests.gtkEnvironment.merging(["XDG_RUNTIME_DIR": runtime,
                                                                                          "WAYLAND_DISPLAY": socket,
                                                                                          "HOME": runtime]) { $1 },
                              log: runtime + "/gtk.log")
    }

    /// The kiosk (verbose) on two 1280x720 headless outputs, extended (HEADLESS-2 at x 0,
    /// HEADLESS-1 right of it at 1280), replaying `taps` from a touchscreen mapped to
    /// HEADLESS-1, whose native point (x, y) is the screen's (1280 + x, y); logging to
    /// `runtime`/kiosk.log. The kiosk and its socket, once it listens (stopped if it does not).
    static func startKioskOnTwoHeadlessOutputs(_ runtime: String, replaying taps: FrameScript)
        throws -> (server: Background, socket: String) {
        let kiosk = try WlrootsKioskTests.builtKiosk()
        let recording = runtime + "/taps.yml"
        try WlrootsKioskBehaviourTests.write(taps, to: recording)
        let server = try Background(kiosk, ["--verbose", "--outputs", "extend", "--replay", recording,
                                            "--map-touch", "SeatKit Kiosk Behaviour Touchscreen=HEADLESS-1"],
                                    environment: WlrootsKioskLaunchTests.headless.merging(["XDG_RUNTIME_DIR": runtime,
                                                                                          "WLR_HEADLESS_OUTPUTS": "2"]) { $1 },
                                    log: runtime + "/kiosk.log")
        let socket = WlrootsKioskLaunchTests.socket(of: server)
        if socket == nil { server.stop() }
        return (server, try #require(socket, "the kiosk did not start:\n\(server.text)"))
    }

    /// The popups' frames from "popup mapped at X,Y WxH ..." (in the window's space).
    static func popupFrames(_ kiosk: String) -> [[Double]] {
        lines(kiosk, "popup mapped at ").map { line in
            let words = line.dropFirst("popup mapped at ".count).split(separator: " ")
            let xy = words[0].split(separator: ",").compactMap { Double($0) }
            let wh = words[1].split(separator: "x").compactMap { Double($0) }
            return xy + wh
        }
    }

    /// Headless, two 1280x720 outputs (HEADLESS-2 at x 0, HEADLESS-1 right of it at 1280),
    /// a replayed touchscreen mapped to the second: its native point (x, y) is the window's
    /// (1280 + x, y).
    @Test func onTwoHeadlessOutputsADropdownListOnTheSecondOutputTakesTapsThereAndATapOutsideDismissesIt() throws {
        let runtime = try temporaryDirectory("seatkit-wlr-extend-popups")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        var s = FrameScript(startingAt: 0)
        s.time = 2_500_000  // GTK's first frame
        let tap = { (s: inout FrameScript, x: Double, y: Double, id: Int32) in
            WlrootsKioskBehaviourTests.press(&s, x, y, id: id, hold: 80_000, after: 2_500_000)
        }
        tap(&s, 500, 80, 1)    // window 1780,80: "right" opens its list, on the second output
        tap(&s, 1000, 600, 2)  // outside the list, on the second output: dismissed, reaches no app
        tap(&s, 500, 80, 3)    // opens it again
        tap(&s, 500, 368, 4)   // its third row: Cherry
        tap(&s, 50, 80, 5)     // window 1330,80: "wide" opens its list, across both outputs
        tap(&s, 50, 368, 6)    // its third row, on the second output's part: Cherry
        let (server, socket) = try Self.startKioskOnTwoHeadlessOutputs(runtime, replaying: s)
        defer { server.stop() }
        let app = try Self.startApp(runtime, socket)
        defer { app.stop() }
        try #require(server.waitFor(timeout: 60) { $0.contains("replay finished") } != nil,
                     "the replay did not finish:\n\(server.text)\ngtk:\n\(app.text)")
        _ = app.waitFor(timeout: 10) { Self.lines($0, "chosen ").count >= 2 }
        let (kioskLog, gtk) = (server.text, app.text)

        #expect(kioskLog.contains("screen extended 2560x720 over 2 outputs"), "\(kioskLog)")
        #expect(Self.lines(gtk, "chosen ") == ["chosen right Cherry", "chosen wide Cherry"], "gtk:\n\(gtk)\nkiosk:\n\(kioskLog)")
        let mapped = Self.lines(kioskLog, "popup mapped at ")
        #expect(mapped.count == 3 && mapped.allSatisfy { $0.hasSuffix("with a grab on every output") }, "kiosk:\n\(kioskLog)")
        #expect(Self.lines(kioskLog, "popup dismissed").count == 1, "the tap outside dismissed the list:\n\(kioskLog)")
        // The tap outside was the grab's: five touches reached GTK, and no press under the lists.
        #expect(Self.lines(kioskLog, "deliver touch down ").count == 5, "kiosk:\n\(kioskLog)")
        #expect(Self.pressesBelowTheDropdowns(gtk).isEmpty, "gtk:\n\(gtk)")
        // The first list lies on the second output; the last across both.
        let frames = Self.popupFrames(kioskLog)
        if frames.count == 3, frames.allSatisfy({ $0.count == 4 }) {
            #expect(frames[0][0] >= 1280, "\(frames)")
            #expect(frames[2][0] < 1280 && frames[2][0] + frames[2][2] > 1280, "\(frames)")
        }
    }

    /// wlroots' x11 backend in Xvfb, two 1024x768 outputs (X11-1 at x 0, X11-2 at 1024):
    /// the mouse, from xdotool over X11-2's window (the one on top), opens "right"'s list
    /// there, chooses from it, opens "wide"'s (from 1000: across the boundary), chooses from
    /// its part on X11-2, and a click outside on X11-2 closes it again without reaching GTK.
    @Test func onTwoX11OutputsTheMouseChoosesFromADropdownListOnTheSecondOutputAndAClickOutsideDismissesIt() throws {
        let runtime = try temporaryDirectory("seatkit-wlr-extend-popups-x11")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let x = try WlrootsKioskX11Tests.Xvfb(runtime: runtime)
        defer { x.stop() }
        let (server, socket) = try WlrootsKioskX11Tests.startKiosk(runtime, x, outputs: 2, options: ["--outputs", "extend"])
        defer { server.stop() }
        let app = try Self.startApp(runtime, socket)
        defer { app.stop() }
        try #require(app.waitFor(timeout: 60) { $0.contains("presented") } != nil, "gtk:\n\(app.text)\nkiosk:\n\(server.text)")
        try #require(server.waitFor(timeout: 30) { $0.contains("screen extended 2048x768 over 2 outputs") } != nil, "\(server.text)")
        let window = try x.window(ofOutput: "X11-2")
        // Window point (wx, wy) is X11-2's (wx - 1024, wy).
        func click(_ wx: Int, _ wy: Int) throws {
            try x.xdotool(["mousemove", "--window", window, "\(wx - 1024)", "\(wy)"])
            usleep(300_000)
            try x.xdotool(["click", "1"])
        }
        func waitKiosk(_ what: String, count: Int) -> Bool {
            server.waitFor(timeout: 20) { $0.components(separatedBy: what).count - 1 >= count } != nil
        }
        usleep(1_000_000)  // GTK's first frame
        try click(1780, 80)  // "right": its list opens on X11-2
        try #require(waitKiosk("popup mapped at ", count: 1), "kiosk:\n\(server.text)\ngtk:\n\(app.text)")
        usleep(500_000)
        try click(1780, 368)  // its third row
        #expect(app.waitFor(timeout: 20) { $0.contains("chosen right Cherry") } != nil, "gtk:\n\(app.text)\nkiosk:\n\(server.text)")
        try #require(waitKiosk("popup unmapped", count: 1), "kiosk:\n\(server.text)")
        usleep(500_000)
        try click(1330, 80)  // "wide": its list from 1000 to 1400, across both outputs
        try #require(waitKiosk("popup mapped at ", count: 2), "kiosk:\n\(server.text)\ngtk:\n\(app.text)")
        usleep(500_000)
        try click(1330, 368)  // its third row, on X11-2's part
        #expect(app.waitFor(timeout: 20) { $0.contains("chosen wide Cherry") } != nil, "gtk:\n\(app.text)\nkiosk:\n\(server.text)")
        try #require(waitKiosk("popup unmapped", count: 2), "kiosk:\n\(server.text)")
        usleep(500_000)
        try click(1780, 80)  // "right" again, then a click outside on X11-2
        try #require(waitKiosk("popup mapped at ", count: 3), "kiosk:\n\(server.text)\ngtk:\n\(app.text)")
        usleep(500_000)
        try click(1900, 700)
        #expect(waitKiosk("popup dismissed", count: 1), "kiosk:\n\(server.text)\ngtk:\n\(app.text)")

        let mapped = Self.lines(server.text, "popup mapped at ")
        #expect(mapped.allSatisfy { $0.hasSuffix("with a grab on every output") }, "kiosk:\n\(server.text)")
        #expect(Self.lines(app.text, "chosen ") == ["chosen right Cherry", "chosen wide Cherry"], "gtk:\n\(app.text)")
        #expect(Self.pressesBelowTheDropdowns(app.text).isEmpty, "the click outside reached no app:\n\(app.text)")
        let frames = Self.popupFrames(server.text)
        if frames.count >= 2, frames[1].count == 4 {
            #expect(frames[1][0] < 1024 && frames[1][0] + frames[1][2] > 1024, "the second list crosses: \(frames)")
        }
    }

    /// Outputs changing while a list is open (issue 24 goal 3): on two x11 outputs in Xvfb
    /// with the kiosk under valgrind, "right"'s list is opened with the mouse on X11-2, then
    /// X11-2's window is closed (wlroots destroys the output). The kiosk closes the app's
    /// popups before it makes the app's parts on the outputs again (the list's parts were
    /// children of the app's slice on X11-2): GTK is told popup_done and unmaps the list, the
    /// app is configured to the output left, a click there reaches it, and valgrind finds
    /// nothing read, written or freed that was gone.
    @Test func closingTheOutputUnderAnOpenListClosesTheListAndMovesTheAppWithNothingDanglingUnderValgrind() throws {
        let runtime = try temporaryDirectory("seatkit-wlr-extend-popups-gone")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let libraries = try WlrootsKioskX11Tests.librariesWithoutDebugInfo(in: runtime)
        let x = try WlrootsKioskX11Tests.Xvfb(runtime: runtime)
        defer { x.stop() }
        let valgrindLog = runtime + "/valgrind.log"
        // As WlrootsKioskX11Tests' valgrind test: uninitialised-value reports off (optimized
        // Swift's enum tags), SIGTERM unblocked so that valgrind writes its summary.
        let (server, socket) = try WlrootsKioskX11Tests.startKiosk(
            runtime, x, outputs: 2,
            prefix: WlrootsKioskX11Tests.unblocked() + ["/usr/bin/valgrind", "--leak-check=no", "--undef-value-errors=no",
                                                        "--log-file=" + valgrindLog],
            options: ["--outputs", "extend"], extra: ["LD_LIBRARY_PATH": libraries], timeout: 120)
        defer { server.stop() }
        let app = try Self.startApp(runtime, socket)
        defer { app.stop() }
        try #require(app.waitFor(timeout: 120) { $0.contains("presented") } != nil, "gtk:\n\(app.text)\nkiosk:\n\(server.text)")
        try #require(server.waitFor(timeout: 60) { $0.contains("screen extended 2048x768 over 2 outputs") } != nil, "\(server.text)")
        usleep(2_000_000)  // GTK's first frame, under valgrind
        let window = try x.window(ofOutput: "X11-2")
        try x.xdotool(["mousemove", "--window", window, "\(1780 - 1024)", "80"])
        usleep(500_000)
        try x.xdotool(["click", "1"])
        try #require(server.waitFor(timeout: 60) { $0.contains("popup mapped at ") } != nil, "kiosk:\n\(server.text)\ngtk:\n\(app.text)")
        try x.close(window: window)
        try #require(server.waitFor(timeout: 60) { $0.contains("output X11-2 gone") } != nil, "kiosk:\n\(server.text)")
        #expect(server.waitFor(timeout: 60) { $0.contains("screen extended 1024x768 over 1 outputs") } != nil, "\(server.text)")
        #expect(server.waitFor(timeout: 60) { $0.contains("popup unmapped") } != nil,
                "GTK unmapped the list when told it was done:\n\(server.text)")
        let log = server.text
        #expect(log.contains("popup closed: the outputs changed"), "\(log)")
        #expect(!log.contains("popup dismissed"), "closed by the outputs' change, not by a press outside:\n\(log)")
        // The app is on X11-1 alone now: a click there, below the dropdowns, reaches it.
        usleep(1_000_000)
        try x.xdotool(["mousemove", "--window", try x.window(ofOutput: "X11-1"), "500", "400"])
        usleep(500_000)
        try x.xdotool(["click", "1"])
        #expect(app.waitFor(timeout: 30) { $0.contains("window pressed at 500,400") } != nil,
                "gtk:\n\(app.text)\nkiosk:\n\(server.text.suffix(3000))")
        app.stop()
        server.terminate()
        let summary = try #require(WlrootsKioskX11Tests.waitForFile(valgrindLog, timeout: 60) { $0.contains("ERROR SUMMARY:") },
                                   "no valgrind summary:\n\((try? String(contentsOfFile: valgrindLog, encoding: .utf8)) ?? "")")
        #expect(summary.contains("ERROR SUMMARY: 0 errors from 0 contexts"), "\(summary.suffix(6000))")
        #expect(!summary.contains("Invalid read") && !summary.contains("Invalid write") && !summary.contains("Invalid free"))
    }
}
