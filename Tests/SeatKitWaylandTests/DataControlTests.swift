import Foundation
import Testing

/// wlr-data-control in the kiosk with Debian's wl-clipboard 2.1 (which uses data control
/// when the compositor offers it, and otherwise maps a window to get keyboard focus) and a
/// GTK4 app that owns the clipboard.
@Suite(.serialized) struct DataControlTests {
    static func mappedCount(_ session: KioskSession) -> Int {
        session.log.text.split(separator: "\n").filter { $0.hasPrefix("mapped ") }.count
    }

    @Test func wlPasteAndWlCopyWorkWithoutTakingFocusWhileGTKOwnsTheClipboard() throws {
        let session = try KioskSession()
        try session.addDevices()
        let (app, widgets) = try GTKApp.launch(in: session)
        _ = try session.waitForWindow("seatkit-gtk")
        let entry = try #require(widgets["entry"])
        session.send([Script.move(entry.centerX, entry.centerY)] + Script.click() + Script.type([35, 18, 38, 38, 24]))  // hello
        try app.output.require("text:hello")
        session.send(Script.combo([29], 30) + Script.combo([29], 46))  // Ctrl+A, Ctrl+C
        try app.output.require({ $0.contains(" -> wl_data_device@") && $0.contains(".set_selection(wl_data_source@") },
                               "GTK never set the clipboard")
        try app.output.require({ $0.contains(".set_selection(zwp_primary_selection_source_v1@") }, "GTK never set the primary selection")
        let windows = Self.mappedCount(session)

        // wl-paste reads GTK's clipboard, then its primary selection, with no window of its own.
        let paste = try session.launch("wl-paste", ["--no-newline"])
        try paste.output.require("hello")
        let primary = try session.launch("wl-paste", ["--no-newline", "--primary"])
        try primary.output.require("hello")

        // wl-copy takes the clipboard from GTK (which is told: its source is cancelled), and
        // GTK, still focused, pastes it.
        let copy = try session.launch("wl-copy", ["--foreground", "from wl-copy"])
        try app.output.require({ $0.contains("wl_data_source@") && $0.contains(".cancelled()") }, "GTK's source was never cancelled")
        session.send(Script.combo([29], 30) + Script.combo([29], 47))  // Ctrl+A, Ctrl+V
        try app.output.require("text:from wl-copy")
        let again = try session.launch("wl-paste", ["--no-newline"])
        try again.output.require("from wl-copy")
        #expect(Self.mappedCount(session) == windows, "wl-clipboard mapped a window: \(session.log.text)")
        #expect(!session.log.text.contains("focus wl-"), "wl-clipboard took focus")
        copy.kill()
    }
}
