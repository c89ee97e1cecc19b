import CWaylandServer
import Foundation
import Logging
import SeatKit
import SeatKitWayland
import SeatKitXKB
import Testing

/// Failures of the environment, not of a client, are logged through swift-log, never
/// swallowed: a keymap that cannot be written for clients leaves them typing nothing, and
/// the compositor's log must say why.
@Suite struct EnvironmentFailureLogTests {
    /// What a swift-log handler received, in order.
    final class Captured: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [(Logger.Level, String)] = []
        func append(_ level: Logger.Level, _ message: String) { lock.withLock { entries.append((level, message)) } }
        var all: [(Logger.Level, String)] { lock.withLock { entries } }
    }

    struct CapturingHandler: LogHandler {
        let captured: Captured
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            captured.append(event.level, event.message.description)
        }
    }

    /// A keymap provider whose file cannot be written (as when memfd_create fails).
    final class UnwritableKeymap: KeymapProvider {
        struct NoMemfd: Error, CustomStringConvertible { var description: String { "memfd_create: Too many open files" } }
        func keymapFile() throws -> KeymapFile { throw NoMemfd() }
        var keyRepeat: KeyRepeat { .standard }
    }

    @Test func aKeymapFileThatCannotBeWrittenIsLoggedAsAnError() throws {
        let raw = try #require(wl_display_create())
        defer { wl_display_destroy(raw) }
        let display = WaylandDisplay(wrapping: raw)
        let router = Router(clock: VirtualClock())
        let seat = Seat(display: display, router: router)
        let captured = Captured()
        seat.logger = Logger(label: "test") { _ in CapturingHandler(captured: captured) }
        seat.keymap = UnwritableKeymap()
        let errors = captured.all.filter { $0.0 == .error }.map(\.1)
        #expect(errors.count == 1)
        #expect(errors.first?.contains("no_keymap") == true && errors.first?.contains("memfd_create: Too many open files") == true,
                "\(errors)")
    }
}
