import ArgumentParser
import SeatKit
import SeatKitReplay

/// `seatkit info`: what a recording holds, without replaying it.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a recording's devices, their capabilities, event counts and duration."
    )

    @Argument(help: "A recording made with `libinput record`.") var recording: String

    func run() throws {
        let r = try parseRecording(recording)
        print("recording: \(r.source)")
        print("recorded with: libinput \(r.libinputVersion ?? "unknown")\(r.operatingSystem.map { " on \($0)" } ?? "")\(r.kernel.map { ", kernel \($0)" } ?? "")")
        print("duration: \(formatSeconds(r.duration.seconds)) s")
        print("devices: \(r.devices.count)\(r.declaredDeviceCount != r.devices.count ? " (file declares \(r.declaredDeviceCount))" : "")")
        for (i, d) in r.devices.enumerated() {
            let caps = d.recordedCapabilities?.joined(separator: ",") ?? d.apparentCapabilities.description
            print("  [\(i)] \(d.name) (\(d.node))")
            print("      capabilities: \(caps.isEmpty ? "none" : caps)\(d.recordedCapabilities == nil ? " (judged from its codes)" : "")")
            let id = d.identity
            print("      id: bus 0x\(String(id.bustype, radix: 16)) vendor 0x\(String(id.vendor, radix: 16)) product 0x\(String(id.product, radix: 16))")
            if let first = d.frames.first, let last = d.frames.last {
                print("      frames: \(d.frames.count), evdev events: \(d.eventCount), from \(formatSeconds(Double(first.time) / 1e6)) s to \(formatSeconds(Double(last.time) / 1e6)) s")
            } else {
                print("      frames: 0")
            }
            var byType: [UInt16: Int] = [:]
            for e in d.frames.flatMap(\.events) where e.type != 0 { byType[e.type, default: 0] += 1 }
            let names: [UInt16: String] = [1: "EV_KEY", 2: "EV_REL", 3: "EV_ABS", 4: "EV_MSC", 5: "EV_SW", 0x11: "EV_LED", 0x14: "EV_REP"]
            let counts = byType.keys.sorted().map { "\(names[$0] ?? "type \($0)") \(byType[$0]!)" }.joined(separator: ", ")
            if !counts.isEmpty { print("      events: \(counts)") }
            if !d.libinputEvents.isEmpty { print("      recorded libinput events: \(d.libinputEvents.count)") }
        }
        for w in r.warnings { print("warning: \(w)") }
        try finishStandardOutput()
    }
}
