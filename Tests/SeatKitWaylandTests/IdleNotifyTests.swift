import Foundation
import Testing

/// ext-idle-notify-v1 and idle-inhibit with real clients (Debian's swayidle 1.8; a GTK4 app
/// that inhibits idle through `Gtk.Application.inhibit`) in the kiosk on a virtual clock
/// (`--virtual-clock`): time moves only when the script says, so idle comes at exact times.
@Suite(.serialized) struct IdleNotifyTests {
    static func advance(_ ms: Int) -> String { #"{"type": "advance-clock", "ms": \#(ms)}"# }

    /// The kiosk's lines about the clock and idle notifications, in order.
    static func timeline(_ log: String) -> [String] {
        log.split(separator: "\n").map(String.init).filter { $0.hasPrefix("clock advanced") || $0.hasPrefix("idle notification after") }
    }

    static func swayidle(in session: KioskSession) throws -> ClientProcess {
        let swayidle = try session.launch("swayidle", ["timeout", "5", "echo idle-5", "resume", "echo resumed-5",
                                                       "timeout", "10", "echo idle-10", "resume", "echo resumed-10"])
        try session.log.require({ $0.contains("idle notification after 5000 ms\n") && $0.contains("idle notification after 10000 ms\n") },
                                "swayidle asked for no idle notifications")
        return swayidle
    }

    @Test func swayidleSeesIdleAndResumeAtTheRightTimesOnTheRoutersClock() throws {
        let session = try KioskSession(windowOptions: ["--virtual-clock"])
        try session.addDevices()
        let swayidle = try Self.swayidle(in: session)
        let start = session.log.mark

        // 4.999 s of nothing: not idle; 5 s: the 5-second timeout; 10 s: the other. A key
        // resumes both, and the count starts again from the key.
        session.send([Self.advance(4999), Self.advance(1), Self.advance(4999), Self.advance(1)]
            + Script.type([30]) + [Self.advance(4999), Self.advance(1), Self.advance(100)])
        try session.log.require({ $0[start...].contains("clock advanced 100 ms") }, "the script did not run")
        #expect(Self.timeline(String(session.log.text[start...])) == [
            "clock advanced 4999 ms",
            "idle notification after 5000 ms: idled",
            "clock advanced 1 ms",
            "clock advanced 4999 ms",
            "idle notification after 10000 ms: idled",
            "clock advanced 1 ms",
            "idle notification after 10000 ms: resumed",
            "idle notification after 5000 ms: resumed",
            "clock advanced 4999 ms",
            "idle notification after 5000 ms: idled",
            "clock advanced 1 ms",
            "clock advanced 100 ms",
        ], "\(session.log.text[start...])")
        // swayidle ran its commands (each in a process of its own, so their output may
        // interleave: counted, the order is the kiosk's above).
        func commands(_ text: String) -> [String] {
            text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("idle-") || $0.hasPrefix("resumed-") }.sorted()
        }
        try swayidle.output.require({ commands($0).count >= 5 }, "swayidle did not run its five commands")
        let commands = commands(swayidle.output.text)
        #expect(commands == ["idle-10", "idle-5", "idle-5", "resumed-10", "resumed-5"], "\(commands)")
    }

    /// A GTK4 app inhibits idle (`Gtk.Application.inhibit(window, IDLE)`, which GTK 4.8 makes a
    /// zwp_idle_inhibitor_v1 on its window's surface): swayidle is never told idle while the
    /// window is shown; once the app is gone, idle comes after the whole timeout.
    @Test func anIdleInhibitorOnAShownWindowHoldsIdleOffUntilItGoes() throws {
        let session = try KioskSession(windowOptions: ["--virtual-clock"])
        try session.addDevices()
        let swayidle = try Self.swayidle(in: session)
        let path = session.runtimeDirectory + "/inhibit.py"
        try GTKInhibitingApp.script.write(toFile: path, atomically: true, encoding: .utf8)
        let app = try session.launch("/usr/bin/python3", [path], environment: ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo",
                                                                               "GTK_A11Y": "none", "NO_AT_BRIDGE": "1"])
        _ = try session.waitForWindow("python3")
        try app.output.require("inhibited")
        try session.log.require("idle inhibitors: 1")
        let start = session.log.mark
        session.send([Self.advance(30_000)])
        try session.log.require({ $0[start...].contains("clock advanced 30000 ms") }, "the script did not run")
        #expect(!session.log.text[start...].contains("idled"), "idle came through the inhibitor: \(session.log.text[start...])")

        app.kill()
        try session.log.require({ $0[start...].contains("unmapped python3") }, "the app's window never went")
        let gone = session.log.mark
        session.send([Self.advance(4999), Self.advance(1)])
        try session.log.require({ $0[gone...].contains("clock advanced 1 ms") }, "the script did not run")
        #expect(Self.timeline(String(session.log.text[gone...])) == [
            "clock advanced 4999 ms", "idle notification after 5000 ms: idled", "clock advanced 1 ms",
        ], "\(session.log.text[gone...])")
        try swayidle.output.require("idle-5")
    }
}
