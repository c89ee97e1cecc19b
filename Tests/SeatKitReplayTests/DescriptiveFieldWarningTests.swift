import SeatKit
import SeatKitReplay
import Testing

/// A malformed descriptive field of a recording (libinput.version, os, kernel, dmi) does not
/// stop the replay, and does not vanish either: it becomes a warning with its line.
@Suite struct DescriptiveFieldWarningTests {
    @Test func aKernelThatIsNotTextIsAWarningWithItsLineNotSilence() throws {
        let good = RecordingWriter.text(of: try SyntheticRecordings.touchscreenTwoFingers())
        let bad = good.replacing("  kernel: \"", with: "  kernel:\n    - \"")
        #expect(bad != good)
        let recording = try RecordingParser.parse(bad, source: "odd-kernel.yml")
        #expect(recording.kernel == nil)
        #expect(recording.warnings.contains { $0.hasPrefix("odd-kernel.yml:") && $0.contains("`kernel` must be a text value") && $0.hasSuffix("(ignored)") },
                "\(recording.warnings)")
        #expect(try RecordingParser.parse(good, source: "good.yml").warnings.isEmpty)
    }
}
