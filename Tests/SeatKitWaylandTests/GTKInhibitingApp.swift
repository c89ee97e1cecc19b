/// A GTK4 app that inhibits idle 200 ms after its window is shown
/// (`Gtk.Application.inhibit(window, IDLE)`, which GTK 4.8 makes a zwp_idle_inhibitor_v1 on
/// the window's surface) and prints "inhibited" when it has. Written to a file and run with
/// python3 (python3-gi, gir1.2-gtk-4.0).
///
/// One file for two test targets, as WireClientCore.swift: SeatKitWaylandTests (the Swift
/// kiosk) has it here, and CSeatKitTests (the wlroots kiosk) through a symbolic link to it.
enum GTKInhibitingApp {
    static let script = #"""
    import gi
    gi.require_version("Gtk", "4.0")
    from gi.repository import Gtk, GLib
    def activate(app):
        win = Gtk.ApplicationWindow(application=app, title="inhibitor")
        win.set_child(Gtk.Label(label="a video"))
        win.present()
        def inhibit():
            app.inhibit(win, Gtk.ApplicationInhibitFlags.IDLE, "playing")
            print("inhibited", flush=True)
            return False
        GLib.timeout_add(200, inhibit)
    app = Gtk.Application(application_id="org.seatkit.Inhibit")
    app.connect("activate", activate)
    app.run([])
    """#
}
