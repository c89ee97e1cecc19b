import Foundation

/// A GTK4 app whose drawing area has a GtkGestureStylus: it prints the stylus's proximity,
/// down, motion and up with the tool type, pressure and tilt (x,y, GTK's -1...1: degrees /
/// 90, two decimals) GTK read from zwp_tablet_tool_v2, and "ready" once its window is up.
/// Its window's title and app id are "seatkit-pen".
///
/// One file for two test targets: SeatKitWaylandTests (the Swift kiosk) has it here, and
/// CSeatKitTests (the wlroots kiosk) through a symbolic link to it, so it needs nothing of
/// either target.
enum GTKStylusApp {
    static let script = #"""
    import sys, gi
    gi.require_version("Gtk", "4.0")
    gi.require_version("Gdk", "4.0")
    from gi.repository import Gtk, Gdk, GLib

    def say(*a):
        print(*a, flush=True)

    def axes(g):
        ok, p = g.get_axis(Gdk.AxisUse.PRESSURE)
        okx, tx = g.get_axis(Gdk.AxisUse.XTILT)
        oky, ty = g.get_axis(Gdk.AxisUse.YTILT)
        tool = g.get_device_tool()
        kind = tool.get_tool_type().value_nick if tool else "none"
        return "tool=%s pressure=%.2f tilt=%.2f,%.2f" % (kind, p if ok else -1, tx if okx else -99, ty if oky else -99)

    def activate(app):
        win = Gtk.ApplicationWindow(application=app, title="seatkit-pen")
        area = Gtk.DrawingArea()
        area.set_hexpand(True)
        area.set_vexpand(True)
        stylus = Gtk.GestureStylus()
        stylus.connect("proximity", lambda g, x, y: say("proximity %d %d %s" % (x, y, axes(g))))
        stylus.connect("down", lambda g, x, y: say("down %d %d %s" % (x, y, axes(g))))
        stylus.connect("motion", lambda g, x, y: say("motion %d %d %s" % (x, y, axes(g))))
        stylus.connect("up", lambda g, x, y: say("up %d %d" % (x, y)))
        area.add_controller(stylus)
        win.set_child(area)
        win.present()
        GLib.timeout_add(200, lambda: (say("ready"), False)[1])

    GLib.set_prgname("seatkit-pen")
    app = Gtk.Application(application_id="org.seatkit.Pen")
    app.connect("activate", activate)
    app.run([])
    """#
}
