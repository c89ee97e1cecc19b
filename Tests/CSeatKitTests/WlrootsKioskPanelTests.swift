import Foundation
import SeatKitReplay
import Testing

/// Layer-shell panels on the output they ask for (issue 24 goals 3 and 8, `--outputs
/// extend`): a real layer-shell client, a GTK3 bar through gtk-layer-shell (Debian's
/// gir1.2-gtklayershell-0.1) that picks the second output by its place, is placed on that
/// output, takes the touches there, and its exclusive zone keeps the app (wev, across both
/// outputs) out from under it. Before, every panel went to the first output whatever it asked
/// for: the bar's place got the app's touches.
@Suite(.serialized) struct WlrootsKioskPanelTests {
    /// A bottom bar `height` px high on the monitor whose x is `monitorX`, exclusive zone
    /// `height` (or the third argument), namespace "seatkit-bar" (or the fourth): one button
    /// that prints "bar clicked".
    static let script = #"""
    import sys
    import gi
    gi.require_version("Gtk", "3.0")
    gi.require_version("Gdk", "3.0")
    gi.require_version("GtkLayerShell", "0.1")
    from gi.repository import Gdk, Gtk, GtkLayerShell

    monitor_x, height = int(sys.argv[1]), int(sys.argv[2])
    zone = int(sys.argv[3]) if len(sys.argv) > 3 else height
    namespace = sys.argv[4] if len(sys.argv) > 4 else "seatkit-bar"

    def say(text):
        print(text, flush=True)

    win = Gtk.Window()
    GtkLayerShell.init_for_window(win)
    GtkLayerShell.set_namespace(win, namespace)
    GtkLayerShell.set_layer(win, GtkLayerShell.Layer.TOP)
    for edge in (GtkLayerShell.Edge.BOTTOM, GtkLayerShell.Edge.LEFT, GtkLayerShell.Edge.RIGHT):
        GtkLayerShell.set_anchor(win, edge, True)
    GtkLayerShell.set_exclusive_zone(win, zone)
    display = Gdk.Display.get_default()
    for i in range(display.get_n_monitors()):
        monitor = display.get_monitor(i)
        if monitor.get_geometry().x == monitor_x:
            GtkLayerShell.set_monitor(win, monitor)
            say("bar on the monitor at %d" % monitor_x)
    button = Gtk.Button(label="Bar")
    button.set_size_request(-1, height)
    button.connect("clicked", lambda b: say("bar clicked"))
    win.add(button)
    win.show_all()
    Gtk.main()
    """#

    static let gtk3Environment = ["GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1", "LANG": "C.UTF-8"]

    /// Two 1280x720 headless outputs side by side (HEADLESS-2 at x 0, HEADLESS-1 at 1280), a
    /// replayed touchscreen mapped to HEADLESS-1, the bar asking for it (100 px): the bar is
    /// at 0,620 of HEADLESS-1, wev is configured 2560x620, a tap on the bar clicks it and
    /// reaches no app, and a tap above it reaches wev at the window's point.
    @Test func aBarAskingForTheSecondOutputIsPlacedThereTakesItsTouchesAndKeepsTheAppFromUnderIt() throws {
        let runtime = try temporaryDirectory("seatkit-wlr-panels")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        var s = FrameScript(startingAt: 0)
        s.time = 2_000_000  // wev's and the bar's first frames
        WlrootsKioskBehaviourTests.press(&s, 640, 670, id: 1, hold: 80_000, after: 1_000_000)  // the bar, on HEADLESS-1
        WlrootsKioskBehaviourTests.press(&s, 640, 300, id: 2, hold: 80_000, after: 1_000_000)  // wev, window 1920,300
        let (server, socket) = try WlrootsKioskExtendPopupTests.startKioskOnTwoHeadlessOutputs(runtime, replaying: s)
        defer { server.stop() }
        let path = runtime + "/bar.py"
        try Self.script.write(toFile: path, atomically: true, encoding: .utf8)
        let bar = try Background("/usr/bin/python3", [path, "1280", "100"],
                                 environment: Self.gtk3Environment.merging(["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket,
                                                                           "HOME": runtime]) { $1 },
                                 log: runtime + "/bar.log")
        defer { bar.stop() }
        try #require(server.waitFor(timeout: 60) { $0.contains("panel mapped seatkit-bar") } != nil,
                     "kiosk:\n\(server.text)\nbar:\n\(bar.text)")
        // The replay starts when wev maps.
        let wev = try Background("/usr/bin/stdbuf", ["-oL", "/usr/bin/wev"],
                                 environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket],
                                 log: runtime + "/wev.log")
        defer { wev.stop() }
        try #require(server.waitFor(timeout: 60) { $0.contains("replay finished") } != nil,
                     "kiosk:\n\(server.text)\nbar:\n\(bar.text)")
        _ = bar.waitFor(timeout: 10) { $0.contains("bar clicked") }
        _ = wev.waitFor(timeout: 10) { $0.contains("wl_touch] up") }
        let (kioskLog, wevLog) = (server.text, wev.text)

        #expect(bar.text.contains("bar on the monitor at 1280"), "bar:\n\(bar.text)")
        #expect(kioskLog.contains("panel mapped seatkit-bar at 0,620 1280x100 on HEADLESS-1"), "kiosk:\n\(kioskLog)")
        #expect(kioskLog.contains("apps at 0,0 2560x620"), "kiosk:\n\(kioskLog)")
        #expect(wevLog.contains("configure: width: 2560; height: 620"), "wev:\n\(wevLog)")
        #expect(bar.text.contains("bar clicked"), "the tap on the bar clicked it:\n\(bar.text)\nkiosk:\n\(kioskLog)")
        // The bar's tap reached no app: wev got one touch, the second, at the window's 1920,300.
        let downs = wevLog.split(separator: "\n").filter { $0.contains("wl_touch] down") }
        #expect(downs.count == 1, "wev:\n\(wevLog)")
        // Within a unit (the touchscreen's raw units round).
        let point = downs.first.flatMap { line in line.range(of: "x, y: ").map { String(line[$0.upperBound...]) } }?
            .components(separatedBy: ", ").compactMap { Double($0) } ?? []
        #expect(point.count == 2 && abs(point[0] - 1920) < 1 && abs(point[1] - 300) < 1, "wev:\n\(wevLog)")
    }

    /// A panel without an exclusive zone of its own (0) is placed in what the other panels'
    /// zones leave, as sway places it, and moved when such a zone comes; one whose zone is -1
    /// ignores them. One output (1280x720): a 50 px strip with zone 0 maps first at the bottom
    /// edge (0,670); a 100 px bar with a zone of 100 comes, and the strip moves above it
    /// (0,570); a 40 px overlay with zone -1 goes to the bottom edge (0,680), over the bar.
    /// Before, the strip stayed at the edge under the bar.
    @Test func aPanelWithoutAZoneStaysOutOfAnotherPanelsZoneAndOneWithZoneMinusOneDoesNot() throws {
        let kiosk = try WlrootsKioskTests.builtKiosk()
        let runtime = try temporaryDirectory("seatkit-wlr-panels")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let server = try Background(kiosk, ["--verbose"],
                                    environment: WlrootsKioskLaunchTests.headless.merging(["XDG_RUNTIME_DIR": runtime]) { $1 },
                                    log: runtime + "/kiosk.log")
        defer { server.stop() }
        let socket = try #require(WlrootsKioskLaunchTests.socket(of: server), "the kiosk did not start:\n\(server.text)")
        let path = runtime + "/bar.py"
        try Self.script.write(toFile: path, atomically: true, encoding: .utf8)
        let environment = Self.gtk3Environment.merging(["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket, "HOME": runtime]) { $1 }
        func panel(_ height: Int, zone: Int, _ namespace: String) throws -> Background {
            try Background("/usr/bin/python3", [path, "0", String(height), String(zone), namespace],
                           environment: environment, log: runtime + "/\(namespace).log")
        }
        let strip = try panel(50, zone: 0, "seatkit-strip")
        defer { strip.stop() }
        try #require(server.waitFor(timeout: 60) { $0.contains("panel mapped seatkit-strip") } != nil,
                     "kiosk:\n\(server.text)\nstrip:\n\(strip.text)")
        let bar = try panel(100, zone: 100, "seatkit-bar")
        defer { bar.stop() }
        try #require(server.waitFor(timeout: 60) { $0.contains("panel mapped seatkit-bar") } != nil,
                     "kiosk:\n\(server.text)\nbar:\n\(bar.text)")
        _ = server.waitFor(timeout: 10) { $0.contains("panel seatkit-strip at ") }
        let overlay = try panel(40, zone: -1, "seatkit-overlay")
        defer { overlay.stop() }
        try #require(server.waitFor(timeout: 60) { $0.contains("panel mapped seatkit-overlay") } != nil,
                     "kiosk:\n\(server.text)\noverlay:\n\(overlay.text)")
        let log = server.text
        #expect(log.contains("panel mapped seatkit-strip at 0,670 1280x50"), "kiosk:\n\(log)")
        #expect(log.contains("panel mapped seatkit-bar at 0,620 1280x100"), "kiosk:\n\(log)")
        #expect(log.contains("panel seatkit-strip at 0,570 1280x50"), "the strip moved out of the bar's zone:\n\(log)")
        #expect(log.contains("panel mapped seatkit-overlay at 0,680 1280x40"), "kiosk:\n\(log)")
        #expect(log.contains("apps at 0,0 1280x620"), "kiosk:\n\(log)")
    }
}
