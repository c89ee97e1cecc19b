import CWaylandServer
import Glibc
import SeatKit
import SeatKitWayland
import Testing

/// `WaylandDisplay.watch(fileDescriptor:readable:)`'s callback is called without a retain of
/// its box per wake-up (issue 25, eleventh round): a callback that stops watching its own fd,
/// or watches it again with another closure, lets go of the box and the closure that is
/// running. The box keeps itself, and so the closure and what it captured, until the call
/// returns, and no longer.
@Suite struct WatchCallbackTests {
    /// Says when it goes: captured by a callback, it lives as long as the callback's closure.
    final class Probe {
        let gone: () -> Void
        init(gone: @escaping () -> Void) { self.gone = gone }
        deinit { gone() }
    }

    /// A pipe with a byte waiting in it: its read end is readable.
    private static func readablePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        try #require(write(fds[1], "x", 1) == 1)
        return (fds[0], fds[1])
    }

    @Test func aCallbackThatStopsWatchingItsOwnFileDescriptorKeepsItsClosureUntilItReturns() throws {
        let raw = try #require(wl_display_create())
        defer { wl_display_destroy(raw) }
        let display = WaylandDisplay(wrapping: raw)
        let fds = try Self.readablePipe()
        defer { close(fds.read); close(fds.write) }

        var log: [String] = []
        var calls = 0
        do {
            let probe = Probe { log.append("closure freed") }
            display.watch(fileDescriptor: fds.read) { [probe] in
                calls += 1
                log.append("called")
                display.stopWatching(fileDescriptor: fds.read)
                // The closure running is still alive here, with what it captured.
                withExtendedLifetime(probe) { log.append("after stopWatching") }
            }
        }
        display.dispatch(timeout: 0)
        #expect(log == ["called", "after stopWatching", "closure freed"])
        // No longer watched: the byte still waiting does not call it again.
        display.dispatch(timeout: 0)
        #expect(calls == 1)
    }

    @Test func aCallbackThatWatchesItsOwnFileDescriptorAgainRunsToItsEndAndTheNewOneIsCalledNext() throws {
        let raw = try #require(wl_display_create())
        defer { wl_display_destroy(raw) }
        let display = WaylandDisplay(wrapping: raw)
        let fds = try Self.readablePipe()
        defer { close(fds.read); close(fds.write) }

        var log: [String] = []
        do {
            let probe = Probe { log.append("first freed") }
            display.watch(fileDescriptor: fds.read) { [probe] in
                log.append("first")
                display.watch(fileDescriptor: fds.read) {
                    log.append("second")
                    display.stopWatching(fileDescriptor: fds.read)
                }
                withExtendedLifetime(probe) { log.append("first goes on") }
            }
        }
        display.dispatch(timeout: 0)
        #expect(log == ["first", "first goes on", "first freed"])
        display.dispatch(timeout: 0)
        #expect(log == ["first", "first goes on", "first freed", "second"])
        display.dispatch(timeout: 0)
        #expect(log.count == 4)
    }

    @Test func aCallbackNotLetGoOfIsCalledOnEveryWakeUpAndFreedWhenStopped() throws {
        let raw = try #require(wl_display_create())
        defer { wl_display_destroy(raw) }
        let display = WaylandDisplay(wrapping: raw)
        let fds = try Self.readablePipe()
        defer { close(fds.read); close(fds.write) }

        var freed = false
        var calls = 0
        do {
            let probe = Probe { freed = true }
            display.watch(fileDescriptor: fds.read) { [probe] in
                withExtendedLifetime(probe) { calls += 1 }
            }
        }
        for _ in 0..<3 { display.dispatch(timeout: 0) }
        #expect(calls == 3)
        #expect(!freed)
        display.stopWatching(fileDescriptor: fds.read)
        #expect(freed)
    }
}
