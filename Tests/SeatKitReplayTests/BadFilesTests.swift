import Testing
import SeatKit
import SeatKitLibinput
@testable import SeatKitReplay
#if canImport(Glibc)
import Glibc
#endif

/// Files as they come from other tools and machines: read correctly when they can be, and
/// otherwise an error naming the file and the line.
@Suite struct BadFilesTests {
    static let good = MalformedRecordingTests.good

    func error(_ bytes: [UInt8]) -> RecordingError? {
        do {
            _ = try RecordingParser.parse(bytes: bytes, source: "bad.yml")
            return nil
        } catch {
            return error
        }
    }
    func error(_ text: String) -> RecordingError? { error(Array(text.utf8)) }
    /// The line of `name: "kbd"` in ``good``.
    static let nameLine = good.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("name: \"kbd\"") }! + 1

    @Test func crlfAndAByteOrderMarkReadLikeTheOriginal() throws {
        for (name, original) in try SyntheticRecordings.texts(andThirdParty: ["multi-mouse-keyboard-cs2.yml"]) {
            try crlfAndAByteOrderMarkReadLikeTheOriginal(name, original)
        }
    }

    func crlfAndAByteOrderMarkReadLikeTheOriginal(_ name: String, _ original: [UInt8]) throws {
        var windows: [UInt8] = [0xEF, 0xBB, 0xBF]
        for b in original {
            if b == 10 { windows.append(13) }
            windows.append(b)
        }
        let a = try RecordingParser.parse(bytes: original, source: "lf.yml")
        let b = try RecordingParser.parse(bytes: windows, source: "crlf.yml")
        #expect(!b.devices.isEmpty && b.devices.count == a.devices.count, "\(name)")
        #expect(a.devices.map(\.frames) == b.devices.map(\.frames), "\(name)")
        #expect(a.devices.map(\.name) == b.devices.map(\.name))
        #expect(a.devices.map(\.udevProperties) == b.devices.map(\.udevProperties))
    }

    @Test func withoutAUdevSectionLibinputStillTakesEveryKindOfDevice() throws {
        var devices = [SyntheticDevice.mouse(), SyntheticDevice.keyboard(), SyntheticDevice.touchpad(), SyntheticDevice.touchscreen()]
        for i in devices.indices {
            devices[i].udevProperties = []
            var s = FrameScript()
            s.frame([FrameScript.key(30, 1)].filter { _ in i == 1 } + [FrameScript.rel(0, 1)].filter { _ in i == 0 })
            devices[i].frames = s.frames
        }
        let text = RecordingWriter.text(of: Recording(source: "old.yml", declaredDeviceCount: 4, devices: devices))
        #expect(!text.contains("udev:"), "written like libinput 1.11-1.13 did")
        let recording = try RecordingParser.parse(text, source: "old.yml")
        #expect(recording.devices[0].udevProperties.contains("ID_INPUT_MOUSE=1"))
        #expect(recording.devices[1].udevProperties.contains("ID_INPUT_KEYBOARD=1"))
        #expect(recording.devices[2].udevProperties.contains("ID_INPUT_TOUCHPAD=1"))
        #expect(recording.devices[3].udevProperties.contains("ID_INPUT_TOUCHSCREEN=1"))
        let result = try LibinputReplay(recording: recording).run()
        let added = result.events.compactMap { if case .deviceAdded(let d) = $0.kind { d.capabilities } else { nil } }
        #expect(added.count == 4, "libinput took all four")
        #expect(added[0].contains(.pointer))
        #expect(added[1].contains(.keyboard))
        #expect(added[2].contains(.gesture))
        #expect(added[3].contains(.touch))
    }

    @Test func invalidUTF8NamesItsLine() throws {
        var bytes = Array(Self.good.utf8)
        let line = Self.nameLine
        var offset = 0
        for _ in 1..<line { offset = bytes[offset...].firstIndex(of: 10)! + 1 }
        let quote = bytes[offset...].firstIndex(of: UInt8(ascii: "\""))!
        bytes.insert(contentsOf: [0xC3, 0x28], at: quote + 1)
        let e = try #require(error(bytes))
        #expect(e.line == line)
        #expect(e.message.contains("invalid UTF-8"))
        #expect(e.description.hasPrefix("bad.yml:\(line): "))
    }

    @Test func aSecondEventsKeyIsAnErrorNotSilentlyTheOnlyOne() throws {
        let text = Self.good + "  events:\n  - evdev:\n    - [  1,      0,   1,  30,     1]\n    - [  1,      0,   0,   0,     0]\n"
        let e = try #require(error(text))
        #expect(e.message.contains("duplicate key `events`"))
        #expect(e.line == Self.good.split(separator: "\n", omittingEmptySubsequences: false).count)
    }

    @Test func aFileCutOffBeforeItsEventsNamesTheDevice() throws {
        let text = RecordingFormatVersionTests.header + RecordingFormatVersionTests.keyboardDevice
        let e = try #require(error(text))
        #expect(e.message.contains("ends before the events"))
        #expect(e.line == text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("- node:") }! + 1)
    }

    @Test func controlCharactersInANameAreRefused() throws {
        let escaped = Self.good.replacing("name: \"kbd\"", with: "name: \"kbd\\nE: ID_INPUT_TOUCHSCREEN=1\"")
        #expect(escaped != Self.good)
        let e = try #require(error(escaped))
        #expect(e.line == Self.nameLine)
        #expect(e.message.contains("control character U+A"))
        let raw = try #require(error(Self.good.replacing("name: \"kbd\"", with: "name: \"kbd\u{7}\"")))
        #expect(raw.line == Self.nameLine)
    }

    @Test func anUnclosedBracketIsAnErrorInLinearTime() throws {
        // 200,000 lines continuing one list: quadratic rescanning would take hours.
        var text = Self.good + "  - hid: [1, 2,\n"
        text += String(repeating: "          3, 4, 5, 6,\n", count: 200_000)
        let e = try #require(error(text))
        #expect(e.message.contains("never closed"))
        #expect(e.line == Self.good.split(separator: "\n", omittingEmptySubsequences: false).count)
    }

    @Test func tooManyDevicesIsFoundAtTheFirstDeviceOverTheLimit() throws {
        let device = String(RecordingFormatVersionTests.keyboardDevice.dropFirst("devices:\n".count)) + "  events:\n"
        let deviceLines = device.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        let header = RecordingFormatVersionTests.header.replacing("ndevices: 1", with: "ndevices: 100000") + "devices:\n"
        let headerLines = header.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        let text = header + String(repeating: device, count: 100_000)
        let e = try #require(error(text))
        #expect(e.message.contains("more than \(RecordingParser.maximumDevices) devices"))
        #expect(e.line == headerLines + RecordingParser.maximumDevices * deviceLines + 1, "the 51st device's line")
    }

    @Test func theMostDevicesAllowedReplay() throws {
        var devices: [RecordedDevice] = []
        for i in 0..<RecordingParser.maximumDevices {
            var d = SyntheticDevice.keyboard(name: "SeatKit Keyboard \(i)", node: "/dev/input/event\(i)")
            var s = FrameScript(startingAt: Int64(i) * 1000)
            s.frame([FrameScript.key(30, 1)])
            s.frame([FrameScript.key(30, 0)])
            d.frames = s.frames
            devices.append(d)
        }
        let recording = try SyntheticRecordings.recording(devices, name: "fifty.yml")
        let result = try LibinputReplay(recording: recording).run()
        #expect(result.events.filter { if case .keyboardKey = $0.kind { true } else { false } }.count == 2 * RecordingParser.maximumDevices)
    }

    @Test func aLibinputFailureIsOneLineWithTheLogBehindVerbose() throws {
        var device = SyntheticDevice.mouse(name: "SeatKit Scan Code Box")
        device.codes = [EvdevCodes.EV_MSC: [4]]
        device.udevProperties = ["ID_INPUT=1"]
        var s = FrameScript()
        s.frame([EvdevEvent(type: 4, code: 4, value: 1)])
        device.frames = s.frames
        let path = "/tmp/seatkit-refused-\(getpid()).yml"
        defer { unlink(path) }
        #expect(writeFile(path, Array(RecordingWriter.text(of: Recording(source: path, declaredDeviceCount: 1, devices: [device])).utf8)))
        let (status, output) = runProcess(SeatkitToolTests.tool, ["replay", path])
        #expect(status == 1)
        let lines = output.split(separator: "\n")
        #expect(lines.count == 1, "\(output)")
        #expect(output.hasPrefix("error: libinput replay: "))
        #expect(output.contains("could not add /dev/input/event100"))
        #expect(output.contains("--verbose"))
        let (_, verbose) = runProcess(SeatkitToolTests.tool, ["replay", path, "--verbose"])
        #expect(verbose.contains("not tagged as supported input device"))
    }
}

/// A seeded mutation fuzzer: recordings with lines dropped, doubled, swapped, cut, bytes
/// overwritten or inserted, numbers changed. Every mutant parses or fails with a line
/// inside the file; a sample of those that parse replays through libinput, which takes it
/// or refuses it with an error, and never crashes.
@Suite struct RecordingFuzzTests {
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(max(1, bound)))
        }
    }

    static func mutate(_ lines: [[UInt8]], _ random: inout Random) -> [UInt8] {
        var lines = lines
        let junk: [[UInt8]] = ["[", "]", "{", "}", ":", ", ", "- ", "#", "\"", "'", "  ", "\t", "\r", "\u{0}", "-1", "99999999999",
                               "0x7fffffff", "\u{FEFF}", "é", "\n", "events:", "udev:", "- evdev:", "ndevices: 60"].map { Array($0.utf8) } + [[0xFF], [0xC3]]
        for _ in 0..<(1 + random.next(3)) {
            guard !lines.isEmpty else { break }
            let i = random.next(lines.count)
            switch random.next(8) {
            case 0: lines.remove(at: i)
            case 1: lines.insert(lines[i], at: i)
            case 2: lines.swapAt(i, random.next(lines.count))
            case 3: lines = Array(lines.prefix(i)) + (random.next(2) == 0 ? [Array(lines[i].prefix(random.next(lines[i].count)))] : [])
            case 4:
                if !lines[i].isEmpty { lines[i][random.next(lines[i].count)] = junk[random.next(junk.count)].first ?? 0 }
            case 5: lines[i].insert(contentsOf: junk[random.next(junk.count)], at: random.next(lines[i].count + 1))
            case 6:
                // A digit changed: a time, a code, a value, an id.
                if let d = lines[i].indices.filter({ lines[i][$0] >= 0x30 && lines[i][$0] <= 0x39 }).randomElement(using: &random) {
                    lines[i][d] = UInt8(0x30 + random.next(10))
                }
            default: lines[i] = Array(lines[i].prefix(lines[i].count / 2)) + Array("[[[[".utf8)
            }
        }
        return Array(lines.joined(separator: [10]))
    }

    @Test func mutatedRecordingsNeverCrashOrHang() throws {
        let sources = try SyntheticRecordings.texts(andThirdParty: ["keyboard-at-ibus-test.yml", "touchpad-ite-2fg-scroll-li1.12.yml", "touchpad-3fg-swipe-paperwm.yml"])
            .map(\.bytes)
        var random = Random(state: 2026)
        var parsed = 0, refused = 0, replayed = 0, replayErrors = 0
        for round in 0..<400 {
            let source = sources[round % sources.count]
            let lines = source.split(separator: 10, omittingEmptySubsequences: false).map(Array.init)
            let mutant = Self.mutate(lines, &random)
            let lineCount = mutant.filter { $0 == 10 }.count + 1
            let recording: Recording
            do {
                recording = try RecordingParser.parse(bytes: mutant, source: "mutant-\(round).yml")
                parsed += 1
            } catch {
                refused += 1
                #expect(error.file == "mutant-\(round).yml")
                #expect(error.line >= 0 && error.line <= lineCount, "\(error)")
                #expect(!error.message.isEmpty)
                continue
            }
            // Every fourth mutant that parses goes through libinput, at most 24.
            guard parsed % 4 == 1, replayed < 24, recording.devices.reduce(0, { $0 + $1.frames.count }) < 5_000 else { continue }
            replayed += 1
            do {
                _ = try LibinputReplay(recording: recording).run()
            } catch {
                replayErrors += 1
                #expect(!error.description.contains("Program crashed") && !error.description.contains("status 134"), "\(error.summary)")
            }
        }
        #expect(parsed + refused == 400)
        #expect(parsed > 40 && refused > 40, "the mutants cover both outcomes: \(parsed) parsed, \(refused) refused")
        #expect(replayed > 10)
    }
}

extension Array {
    func randomElement(using random: inout RecordingFuzzTests.Random) -> Element? {
        isEmpty ? nil : self[random.next(count)]
    }
}
