import Testing
@testable import SeatKitReplay

/// Broken and hostile files: each gives an error that names the file, the line and what is
/// wrong, and none crashes.
@Suite struct MalformedRecordingTests {
    static let good = RecordingFormatVersionTests.header + RecordingFormatVersionTests.keyboardDevice + """
          events:
          - evdev:
            - [  0,      0,   1,  30,     1]
            - [  0,      0,   0,   0,     0]
          - evdev:
            - [  0,   9000,   1,  30,     0]
            - [  0,   9000,   0,   0,     0]

        """

    func error(_ text: String) -> RecordingError? {
        do {
            _ = try RecordingParser.parse(text, source: "bad.yml")
            return nil
        } catch {
            return error
        }
    }

    @Test func theGoodFileParses() throws {
        #expect(try RecordingParser.parse(Self.good, source: "good.yml").devices[0].frames.count == 2)
    }

    @Test func truncatedInsideAnEventLine() throws {
        let cut = Self.good.cut(after: "9000,   1")
        let e = try #require(error(cut))
        #expect(e.file == "bad.yml")
        #expect(e.line == 21)
        #expect(e.message.contains("never closed"))
    }

    @Test func truncatedBetweenEventsOfAFrame() throws {
        let cut = Self.good.cut(before: "    - [  0,   9000,   0")
        let e = try #require(error(cut))
        #expect(e.line == 21)
        #expect(e.message.contains("does not end with SYN_REPORT"))
    }

    @Test func truncatedBeforeTheDevices() throws {
        let e = try #require(error(RecordingFormatVersionTests.header))
        #expect(e.message.contains("no `devices`"))
    }

    @Test func emptyAndBinaryFiles() throws {
        #expect(error("")?.message.contains("empty") == true)
        #expect(error("\u{0}\u{1}\u{2}garbage") != nil)
        #expect(error("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]")?.message.contains("nesting") == true)
        #expect(error(String(repeating: "[", count: 100_000))?.message.contains("nesting") == true)
    }

    @Test func wrongTypes() throws {
        let e1 = try #require(error(Self.good.replacingOccurrences("ndevices: 1", "ndevices: one")))
        #expect(e1.line == 2)
        #expect(e1.message.contains("ndevices"))
        let e2 = try #require(error(Self.good.replacingOccurrences("id: [17, 1, 1, 43841]", "id: \"usb\"")))
        #expect(e2.line == 11)
        #expect(e2.message.contains("`id` must be a list"))
        let e3 = try #require(error(Self.good.replacingOccurrences("- [  0,   9000,   1,  30,     0]", "- [  0,   9000,   1,  thirty,     0]")))
        #expect(e3.line == 21)
        #expect(e3.message.contains("integer"))
        let e4 = try #require(error(Self.good.cut(before: "  events:\n") + "  events: 12\n"))
        #expect(e4.message.contains("`events` must be a list"))
        let e5 = try #require(error(Self.good.replacingOccurrences("- [  0,      0,   1,  30,     1]", "- [  0,      0,   1,  30]")))
        #expect(e5.line == 18)
        #expect(e5.message.contains("found 4 numbers"))
    }

    @Test func unknownCodes() throws {
        let e1 = try #require(error(Self.good.replacingOccurrences("- [  0,      0,   1,  30,     1]", "- [  0,      0,   1,  31,     1]")))
        #expect(e1.line == 18)
        #expect(e1.message.contains("not among the device's `codes`"))
        let e2 = try #require(error(Self.good.replacingOccurrences("- [  0,      0,   1,  30,     1]", "- [  0,      0,  99,  30,     1]")))
        #expect(e2.message.contains("unknown event type 99"))
        let e3 = try #require(error(Self.good.replacingOccurrences("1: [1, 28, 30] # EV_KEY", "1: [1, 28, 30, 5000]")))
        #expect(e3.message.contains("outside 0...767"))
        let e4 = try #require(error(Self.good.replacingOccurrences("1: [1, 28, 30] # EV_KEY", "1: [1, 28, 30]\n      42: [1]")))
        #expect(e4.message.contains("unknown event type 42"))
    }

    @Test func absurdValues() throws {
        let e1 = try #require(error(Self.good.replacingOccurrences("- [  0,   9000,   1,  30,     0]", "- [  0, 99999999,   1,  30,     0]")))
        #expect(e1.message.contains("microseconds"))
        let e2 = try #require(error(Self.good.replacingOccurrences("- [  0,   9000,   1,  30,     0]", "- [  0,   9000,   1,  30, 99999999999]")))
        #expect(e2.message.contains("32 bits"))
        let e3 = try #require(error(Self.good.replacingOccurrences("- [  0,   9000,   1,  30,     0]", "- [  0,   9000,   1,  30,     7]")))
        #expect(e3.message.contains("key value 7"))
        let e4 = try #require(error(Self.good.replacingOccurrences("- [  0,   9000,   1,  30,     0]\n    - [  0,   9000,", "- [  0,   1,   1,  30,     0]\n    - [  0,   1,").replacingOccurrences("- [  0,      0,   1,  30,     1]\n    - [  0,      0,", "- [  5,      0,   1,  30,     1]\n    - [  5,      0,")))
        #expect(e4.message.contains("time goes backwards"))
        let e5 = try #require(error(Self.good.replacingOccurrences("ndevices: 1", "ndevices: 100000")))
        #expect(e5.message.contains("ndevices is 100000"))
        let e6 = try #require(error(Self.good.replacingOccurrences("id: [17, 1, 1, 43841]", "id: [17, 1, 1, 99999]")))
        #expect(e6.message.contains("99999"))
        // Numbers past what an event line's compact form holds keep their exact value.
        let e7 = try #require(error(Self.good.replacingOccurrences("- [  0,   9000,   1,  30,     0]", "- [  8589934592,   9000,   1,  30,     0]")))
        #expect(e7.message.contains("seconds value 8589934592 is absurd"))
        let e8 = try #require(error(Self.good.replacingOccurrences("- [  0,   9000,   1,  30,     0]", "- [  0,   9000,   1,  70000,     0]")))
        #expect(e8.message.contains("event code 70000"))
        let e9 = try #require(error(Self.good.replacingOccurrences("- [  0,   9000,   1,  30,     0]", "- [  0,   9000,   1,  30,     0, 4]")))
        #expect(e9.message.contains("found 6 numbers"))
    }

    @Test func integerListsKeepEveryNumberInEitherForm() throws {
        let compact = IntegerList(1, 999_999, 3, 330, -5)
        let wide = IntegerList(-1, 1 << 40, 70_000, 3, Int64(Int32.max) + 1)
        #expect(Array(compact) == [1, 999_999, 3, 330, -5])
        #expect(Array(wide) == [-1, 1 << 40, 70_000, 3, Int64(Int32.max) + 1])
        #expect(Array(IntegerList([7, 8])) == [7, 8] && IntegerList([]).isEmpty)
        #expect(IntegerList([1, 999_999, 3, 330, -5]) == compact)
    }

    @Test func absurdTouchscreenAxes() throws {
        var device = SyntheticDevice.touchscreen()
        device.absoluteAxes[0x2f] = AbsoluteAxisInfo(minimum: 0, maximum: 100_000)
        let text = RecordingWriter.text(of: Recording(source: "t", declaredDeviceCount: 1, devices: [device]))
        #expect(error(text)?.message.contains("ABS_MT_SLOT range") == true)
        device = SyntheticDevice.touchscreen()
        device.absoluteAxes[0] = AbsoluteAxisInfo(minimum: 10, maximum: 0)
        let text2 = RecordingWriter.text(of: Recording(source: "t", declaredDeviceCount: 1, devices: [device]))
        #expect(error(text2)?.message.contains("above maximum") == true)
        device = SyntheticDevice.touchscreen()
        device.absoluteAxes[1] = nil
        let text3 = RecordingWriter.text(of: Recording(source: "t", declaredDeviceCount: 1, devices: [device]))
        #expect(error(text3)?.message.contains("has no `absinfo`") == true)
    }

    @Test func notARecordingAtAll() throws {
        #expect(error("hello: world\n")?.message.contains("no `version`") == true)
        #expect(error("version: 2\nndevices: 1\ndevices:\n")?.message.contains("unsupported format version 2") == true)
        #expect(error("- a\n- b\n")?.message.contains("top level must be a mapping") == true)
    }

    @Test func missingFileNamesTheFile() throws {
        do {
            _ = try RecordingParser.parse(contentsOf: "/nonexistent/x.yml")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/nonexistent/x.yml: no such file")
        }
    }

    @Test func fewerDevicesThanDeclaredIsAWarning() throws {
        let r = try RecordingParser.parse(Self.good.replacingOccurrences("ndevices: 1", "ndevices: 2"), source: "short.yml")
        #expect(r.warnings.count == 1)
        #expect(r.warnings[0].contains("ndevices is 2"))
    }
}

extension String {
    func cut(before needle: String) -> String {
        String(split(separator: needle, maxSplits: 1, omittingEmptySubsequences: false)[0])
    }
    func cut(after needle: String) -> String { cut(before: needle) + needle }
}

/// Real recordings cut off anywhere or with bytes overwritten: every outcome is a parsed
/// recording or a `RecordingError` naming a line inside the file, never a crash.
@Suite struct DamagedRecordingTests {
    /// A fixed pseudo-random sequence, so the test is the same on every run.
    struct Sequence {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    @Test func truncatedAnywhere() throws {
        for (file, bytes) in try SyntheticRecordings.texts(andThirdParty: ["keyboard-at-ibus-test.yml", "touchpad-ite-2fg-scroll-li1.12.yml", "mouse-dell-ms116-move.yml"]) {
            try truncatedAnywhere(file: file, bytes: bytes)
        }
    }

    func truncatedAnywhere(file: String, bytes: [UInt8]) throws {
        let lineCount = bytes.filter { $0 == 10 }.count + 1
        var random = Sequence(state: 42)
        var errors = 0
        for _ in 0..<40 {
            let cut = random.next(bytes.count)
            do {
                _ = try RecordingParser.parse(String(decoding: bytes[0..<cut], as: UTF8.self), source: file)
            } catch {
                errors += 1
                #expect(error.file == file)
                #expect(error.line <= lineCount)
                #expect(!error.message.isEmpty)
            }
        }
        #expect(errors > 0, "some cuts must leave a broken file")
    }

    @Test func bytesOverwritten() throws {
        var random = Sequence(state: 7)
        let junk: [UInt8] = Array("[]{}:,-#\"' \n9x\u{0}".utf8)
        for (file, original) in try SyntheticRecordings.texts(andThirdParty: ["keyboard-at-ibus-test.yml"]) {
            for _ in 0..<60 {
                var bytes = original
                for _ in 0..<4 { bytes[random.next(bytes.count)] = junk[random.next(junk.count)] }
                do {
                    _ = try RecordingParser.parse(String(decoding: bytes, as: UTF8.self), source: file)
                } catch {
                    #expect(error.file == file)
                    #expect(error.line >= 0)
                }
            }
        }
    }
}
