import Testing
@testable import SeatKitReplay
#if canImport(Glibc)
import Glibc
#endif

/// The `seatkit` tool's replay and info commands on the recording the project ships: the
/// README's main job.
@Suite struct SeatkitToolTests {
    static let root: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The built tool beside the test bundle, as the replay itself finds it.
    static var tool: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = String(decoding: buffer[0..<max(n, 0)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var dir = exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if dir.hasSuffix(".xctest") { dir = dir.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") }
        return dir + "/seatkit"
    }

    @Test func replayOfTheShippedKioskRecordingTapsCancelThenOK() throws {
        #expect(access(Self.tool, X_OK) == 0, "build the tool first: \(Self.tool)")
        let (status, output) = runProcess(Self.tool, ["replay", Self.root + "/examples/kiosk-touch.yml", "--layout", Self.root + "/examples/kiosk.layout"])
        #expect(status == 0, "\(output)")
        let ended = output.split(separator: "\n").filter { $0.contains("touchesEnded ->") }.map { $0.split(separator: "->")[1].split(separator: ":")[0].trimmingCharacters() }
        #expect(ended == ["cancel-button", "list", "list", "list", "ok-button"])
    }

    @Test func jsonHasAHeaderOneRecordPerInputEventAndASummary() throws {
        let (status, output) = runProcess(Self.tool, ["replay", Self.root + "/examples/kiosk-touch.yml", "--layout", Self.root + "/examples/kiosk.layout", "--format", "json"])
        #expect(status == 0)
        let lines = output.split(separator: "\n")
        #expect(lines.first == "[" && lines.last == "]")
        #expect(lines[1].hasPrefix("{\"schema\":\"seatkit-replay-trace\",\"version\":1,"))
        let records = lines.filter { $0.hasPrefix("{\"time_us\":") }
        #expect(records.count == 81, "device added + 80 touch events")
        #expect(records.last?.contains("\"kind\":\"touch-frame\"") == true)
        // The last tap: its down has the point in layout and surface space and the hit test;
        // its frame asks ok-button, which takes it.
        let downs = records.filter { $0.contains("\"kind\":\"touch-down\"") }
        #expect(downs.count == 5)
        #expect(downs.last?.contains("\"surface\":{\"name\":\"ok-button\",\"x\":") == true)
        #expect(downs.last?.contains("\"hit_test\":{\"x\":") == true)
        #expect(downs.last?.contains("\"result\":\"ok-button\"") == true)
        #expect(records.contains { $0.contains("\"asked\":[{\"link\":\"ok-button\",\"event\":\"touchesEnded\",\"answer\":\"handled\"}]") && $0.contains("\"taken_by\":\"ok-button\"") })
        #expect(lines[lines.count - 2].hasPrefix("{\"summary\":{\"events\":81,\"dropped\":0,"))
        // Each touch event and its frame count for the surface that took them: 2 + 2 for a
        // tap (down, up and their frames), 36 + 36 for the three drags and the two fingers.
        #expect(lines[lines.count - 2].contains("\"by_taker\":{\"cancel-button\":4,\"list\":72,\"ok-button\":4}"))
        #expect(downs.last?.contains("\"taken_by\":\"ok-button\"") == true, "a down is taken at its frame")
    }

    @Test func infoSummarisesAMultiDeviceRecording() throws {
        let recording = try SyntheticRecordings.recording([SyntheticRecordings.mouse().devices[0], SyntheticRecordings.keyboard().devices[0]], name: "two.yml")
        let file = try SyntheticRecordings.file(recording)
        defer { unlink(file) }
        let (status, output) = runProcess(Self.tool, ["info", file])
        #expect(status == 0)
        #expect(output.contains("devices: 2"))
        #expect(output.contains("[1] SeatKit Test Keyboard"))
        let mouse = recording.devices[0]
        #expect(mouse.frames.count > 5)
        #expect(output.contains("frames: \(mouse.frames.count), evdev events: \(mouse.eventCount)"))
        #expect(output.contains("capabilities: keyboard"))
    }

    @Test func aBrokenRecordingIsAnErrorWithFileAndLine() throws {
        let (status, output) = runProcess(Self.tool, ["info", Self.root + "/examples/kiosk.layout"])
        #expect(status != 0)
        #expect(output.contains("kiosk.layout:"))
    }
}

extension Substring {
    func trimmingCharacters() -> String { String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed()) }
}

@Suite struct SeatkitPlotTests {
    @Test func plotDrawsEachTouchInTheColourOfItsSurface() throws {
        let out = "/tmp/seatkit-plot-test-\(getpid()).svg"
        defer { unlink(out) }
        let (status, output) = runProcess(SeatkitToolTests.tool, ["plot", SeatkitToolTests.root + "/examples/kiosk-touch.yml",
                                                                  "--layout", SeatkitToolTests.root + "/examples/kiosk.layout", "-o", out])
        #expect(status == 0, "\(output)")
        let svg = try #require(RecordingParser.readFile(out))
        let lines = svg.split(separator: "\n")
        let polylines = lines.filter { $0.hasPrefix("<polyline") }
        #expect(polylines.count == 5)
        // Surfaces are coloured in layout order: header, list, cancel-button, ok-button.
        #expect(lines.contains { $0.hasPrefix("<rect x=\"300.0\" y=\"700.0\"") && $0.contains("stroke=\"#d62728\"") })
        #expect(polylines.first?.contains("stroke=\"#2ca02c\"") == true, "the first tap is on cancel-button")
        #expect(polylines.last?.contains("stroke=\"#d62728\"") == true, "the last tap is on ok-button")
    }

    /// A pen recording (written with the project's recording writer) replayed through
    /// libinput and plotted: the stroke is drawn segment by segment, wider as the pressure
    /// rises.
    @Test func plotDrawsAPenStrokeWithPressureAsWidth() throws {
        let recordingPath = try SyntheticRecordings.file(try PenRecordings.penAndEraser())
        defer { unlink(recordingPath) }
        let layoutPath = "/tmp/seatkit-pen-layout-\(getpid()).layout"
        defer { unlink(layoutPath) }
        #expect(writeFile(layoutPath, Array("output OUT-1 1000x600\nsurface canvas 0,0,1000x600 in OUT-1\n".utf8)))
        let out = "/tmp/seatkit-plot-pen-\(getpid()).svg"
        defer { unlink(out) }
        let (status, output) = runProcess(SeatkitToolTests.tool, ["plot", recordingPath, "--layout", layoutPath, "-o", out])
        #expect(status == 0, "\(output)")
        #expect(output.contains("1 pen strokes"), "\(output)")
        let svg = try #require(RecordingParser.readFile(out))
        let widths = svg.split(separator: "\n").filter { $0.hasPrefix("<line class=\"pen\"") }.compactMap { line -> Double? in
            let parts = line.split(separator: "stroke-width=\"", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            return Double(parts[1].prefix { $0 != "\"" })
        }
        #expect(widths.count >= 5, "\(widths)")
        #expect(widths.dropLast().count >= 5 && zip(widths.dropLast(), widths.dropLast().dropFirst()).allSatisfy { $0 < $1 },
                "wider with pressure until the tip lifts: \(widths)")
        #expect(widths.dropLast().allSatisfy { $0 > 1 })
    }
}
