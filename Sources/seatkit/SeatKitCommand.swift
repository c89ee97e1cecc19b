import ArgumentParser

@main
struct SeatKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seatkit",
        abstract: "Route input the way a compositor embedding SeatKit does, and show every decision.",
        subcommands: [Demo.self, ReplayCommand.self, InfoCommand.self, PlotCommand.self, ExampleRecordingCommand.self, ReplayWorkerCommand.self],
        defaultSubcommand: Demo.self
    )
}
