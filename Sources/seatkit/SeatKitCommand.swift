import ArgumentParser

@main
struct SeatKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seatkit",
        abstract: "Route input the way a compositor embedding SeatKit does, and show every decision.",
        subcommands: [Demo.self, ReplayWorkerCommand.self],
        defaultSubcommand: Demo.self
    )
}
