import Foundation
import Testing

/// A recognizer written in C (Tests/CSeatKitProgram/double_tap.c: a two-finger double tap as
/// a seatkit_recognizer_interface), built with cc from the installed prefix alone and run:
/// its lines show it recognized, failed by its own deadline and by movement, waited for by a
/// built-in tap (require-to-fail), excluding and then running beside a built-in double tap,
/// its illegal moves refused, and a compositor swipe's progress and velocity read from C.
@Suite(.serialized) struct CCustomRecognizerTests {
    @Test func aTwoFingerDoubleTapWrittenInCTakesPartLikeTheBuiltIns() throws {
        let prefix = try CProgramTests.installedPrefix()
        let flags = try run("/usr/bin/pkg-config", ["--cflags", "--libs", "seatkit"],
                            environment: ["PKG_CONFIG_PATH": prefix + "/lib/pkgconfig"])
        let binary = prefix + "/double-tap"
        let words = flags.output.split(whereSeparator: \.isWhitespace).map(String.init)
        let source = CProgramTests.programDirectory.appendingPathComponent("double_tap.c").path
        let cc = try run("/usr/bin/cc", ["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-o", binary, source] + words + ["-lm"])
        try #require(cc.status == 0, "cc failed:\n\(cc.output)")
        let result = try run(binary, [], environment: [:])
        let expected = try String(contentsOf: CProgramTests.programDirectory.appendingPathComponent("double_tap.expected.txt"), encoding: .utf8)
        #expect(result.status == 0)
        let got = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
        for (i, line) in want.enumerated() where i >= got.count || got[i] != line {
            Issue.record("line \(i + 1): expected \"\(line)\", got \"\(i < got.count ? got[i] : "<nothing>")\"")
            break
        }
        #expect(got.count == want.count, "\(got.count) lines, expected \(want.count):\n\(result.output)")
    }
}
