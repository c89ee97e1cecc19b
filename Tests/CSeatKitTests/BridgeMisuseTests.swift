import Foundation
import Testing

/// The wlroots bridge's protocols (idle notify, session lock, cursor shape) and pads against a C
/// compositor's mistakes: Tests/CSeatKitProgram/bridge-misuse, built with meson from the
/// installed prefix (warnings as errors), passes every NULL argument, interfaces too small or
/// without their required member, calls in the wrong state, both endings (each _destroy, and
/// wl_display_destroy taking what is left), and a display destroyed before its router, as
/// tinywl's teardown orders it. Each check prints a line; valgrind sees no invalid access and
/// no leak of SeatKit's.
@Suite(.serialized) struct BridgeMisuseTests {
    static let source = CProgramTests.packageRoot.appendingPathComponent("Tests/CSeatKitProgram/bridge-misuse")

    private static let build: Result<String, any Error> = Result {
        let prefix = try CProgramTests.installedPrefix()
        let build = prefix + "/bridge-misuse-build"
        let environment = ["PKG_CONFIG_PATH": prefix + "/lib/pkgconfig"]
        let setup = try run("/usr/bin/meson", ["setup", build, source.path], environment: environment)
        try #require(setup.status == 0, "meson setup failed:\n\(setup.output)")
        let compile = try run("/usr/bin/ninja", ["-C", build], environment: environment)
        try #require(compile.status == 0, "ninja failed (warnings are errors):\n\(compile.output)")
        return build + "/bridge-misuse"
    }

    static let checks = [
        "a scene is made", "idle notifier without a display is refused", "idle notifier without a router is refused",
        "cursor shape without a display is refused", "cursor shape without a bridge is refused",
        "session lock without a display is refused", "session lock without a bridge is refused",
        "session lock without an interface is refused", "session lock with a struct_size too small is refused",
        "session lock without show_surface is refused", "each refusal is logged", "a NULL session lock is not locked",
        "each protocol object is made", "a session lock no client asked for is not locked",
        "no call on a live object was refused",
        "a pad before tablets are enabled is not added", "a pad without a bridge is refused", "a pad without a layout is refused",
        "the four NULLs were logged", "tablets are enabled", "a pad is added", "a pad added again replaces it",
        "a pad without groups is added", "no feedback was given", "no call on a live pad was refused",
        "they can be made again",
        "a session lock on a bridge whose router is gone is refused",
    ]

    @Test func everyMisuseOfTheBridgesProtocolsIsRefusedOrHarmless() throws {
        let binary = try Self.build.get()
        let result = try run(binary, [], environment: [:])
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines == Self.checks.map { $0 + ": yes" } + ["ok"], "\(result.output)")
    }

    /// Under valgrind (memcheck), with libseatkit loaded from a copy without debug information
    /// (valgrind 3.19 cannot read Swift 6.3's DWARF 5). Before the router watched its event
    /// loop, destroying the display first made seatkit_router_destroy read and write the freed
    /// loop (6 invalid accesses in wl_event_source_remove) and leak the timer source.
    @Test func theBridgesMisuseIsValgrindCleanEvenWithTheDisplayDestroyedBeforeTheRouter() throws {
        let binary = try Self.build.get()
        let prefix = try CProgramTests.installedPrefix()
        let libraries = prefix + "/stripped-misuse"
        try? FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: true)
        let strip = try run("/usr/bin/strip", ["--strip-debug", "-o", libraries + "/libseatkit.so.0", prefix + "/lib/libseatkit.so.0"])
        try #require(strip.status == 0, "\(strip.output)")
        let log = prefix + "/valgrind-bridge-misuse.log"
        let result = try run("/usr/bin/valgrind", ["--leak-check=full", "--log-file=" + log, binary],
                             environment: ["LD_LIBRARY_PATH": libraries])
        #expect(result.status == 0 && result.output.hasSuffix("ok\n"), "\(result.output)")
        let text = try String(contentsOfFile: log, encoding: .utf8)
        let reports = ValgrindLog.reports(text).filter { !ValgrindLog.isEnumTagRead($0) }
        #expect(reports.isEmpty, "\(reports.prefix(3).joined(separator: "\n\n"))")
        // Leaks of SeatKit's own (wlroots 0.15 leaks a global's destroy timer at
        // wl_display_destroy: not ours).
        let leaks = ValgrindLog.blocks(text).filter { $0.contains("definitely lost") && $0.contains("libseatkit") }
        #expect(leaks.isEmpty, "\(leaks.joined(separator: "\n\n"))")
        #expect(text.contains("ERROR SUMMARY"), "valgrind did not finish:\n\(text.suffix(3000))")
    }
}
