import ArgumentParser
import SeatKitReplay

/// The libinput side of `seatkit replay`, started by the replay itself under umockdev's
/// preload. Not for people: hidden from help.
struct ReplayWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay-worker",
        abstract: "Internal: run libinput on a replay's emulated devices.",
        shouldDisplay: false
    )

    @Argument(parsing: .allUnrecognized) var arguments: [String] = []

    func run() throws {
        let status = ReplayWorker.run(arguments: arguments)
        if status != 0 { throw ExitCode(status) }
    }
}
