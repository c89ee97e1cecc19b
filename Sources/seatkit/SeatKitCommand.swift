import ArgumentParser
import SeatKitReplay

@main
struct SeatKitCommand: ParsableCommand {
    /// The tool's version, and the versions of what it reads and writes.
    static let version = "seatkit 0.14.0 (libinput record format 1, replay trace schema \(ReplayTraceJSON.version))"

    static let configuration = CommandConfiguration(
        commandName: "seatkit",
        abstract: "Route input the way a compositor embedding SeatKit does, and show every decision.",
        version: SeatKitCommand.version,
        subcommands: [Demo.self, ReplayCommand.self, InfoCommand.self, PlotCommand.self, ExampleRecordingCommand.self, ReplayWorkerCommand.self],
        defaultSubcommand: Demo.self
    )
}
