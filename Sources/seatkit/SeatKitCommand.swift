import ArgumentParser
import SeatKitReplay
#if canImport(Glibc)
// stdout is a C global; it is only touched on the main thread, at the end of a command.
@preconcurrency import Glibc
#endif

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

    /// A first word that is neither an option nor a subcommand is a mistyped subcommand, not
    /// an argument of the default one (`seatkit relpay x.yml` would otherwise say
    /// "Usage: seatkit demo").
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let first = arguments.first, !first.hasPrefix("-"), first != "help" {
            let names = configuration.subcommands.map { $0._commandName }
            if !names.contains(first) {
                let visible = configuration.subcommands.filter { $0.configuration.shouldDisplay }.map { $0._commandName }
                let closest = visible.min { editDistance(first, $0) < editDistance(first, $1) }
                let suggestion = closest.flatMap { editDistance(first, $0) <= 2 ? " Did you mean '\($0)'?" : nil } ?? ""
                writeStandardError("Error: '\(first)' is not a seatkit subcommand.\(suggestion) Subcommands: \(visible.joined(separator: ", ")).\n")
                exit(withError: ExitCode.validationFailure)
            }
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}

/// The number of single-character insertions, deletions and substitutions (transpositions
/// count as two) that turn `a` into `b`.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...max(b.count, 1) where !b.isEmpty {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}

/// Flushes standard output and fails if anything written to it was lost (a full disk,
/// `> /dev/full`, a closed pipe): a command whose output did not arrive must not exit 0.
func finishStandardOutput() throws {
    if fflush(stdout) != 0 || ferror(stdout) != 0 {
        throw CommandFailure("cannot write the output: \(String(cString: strerror(errno)))")
    }
}
