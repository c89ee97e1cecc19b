#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import SeededRandom
import Testing
import SeatKit
import SeatKitLibinput
@testable import SeatKitReplay

/// One worker and testbed for many replays (``ReplaySession``) gives what a fresh worker
/// gives, byte for byte, whatever was replayed on it before.
@Suite struct ReplaySessionTests {
    /// A replay's JSON trace (docs/replay-trace-schema.md), as `seatkit replay --format json` prints it.
    static func json(_ recording: Recording, options: ReplayOptions = ReplayOptions(), session: ReplaySession?) throws -> String {
        let harness = ReplayHarness(session: session)
        let run = try harness.replay(recording, options: options)
        return ReplayTraceJSON.document(run: run, events: run.routedEvents(surfaces: harness.surfaces),
                                        recording: recording.source, recordingDuration: recording.duration.microseconds)
    }

    @Test func aWarmSessionGivesTheJSONOfAFreshWorkerByteForByte() throws {
        // Every shared recording (one or two devices, DMI, quirks), synthetic devices, a
        // configuration and a device unplugged in the middle: different devices and node
        // counts one after another on the same testbed and worker.
        var cases: [(name: String, recording: Recording, options: ReplayOptions)] = []
        for (file, recording) in try SharedRecordings.parsedWhereAvailable() {
            cases.append((file, recording, ReplayOptions()))
        }
        cases.append(("touchscreen", try SyntheticRecordings.touchscreenTwoFingers(), ReplayOptions()))
        cases.append(("swipe, tapping on", try SyntheticRecordings.touchpadThreeFingerSwipe(), ReplayOptions(configuration: DeviceConfiguration(tapToClick: true))))
        cases.append(("keyboard and mouse, mouse unplugged", try SyntheticRecordings.recording([SyntheticRecordings.keyboard().devices[0], SyntheticRecordings.mouse().devices[0]], name: "two"),
                      ReplayOptions(removals: [(device: 1, time: 20_000)])))

        let fresh = try cases.map { try Self.json($0.recording, options: $0.options, session: nil) }
        let session = ReplaySession()
        defer { session.close() }
        // Twice through, the second time in reverse order.
        for i in Array(cases.indices) + Array(cases.indices.reversed()) {
            let warm = try Self.json(cases[i].recording, options: cases[i].options, session: session)
            #expect(warm == fresh[i], "\(cases[i].name)")
        }
        #expect(session.statistics.replays == cases.count * 2)
        #expect(session.statistics.workersStarted == 1)
        // The JSON is not trivially equal: the cases differ from one another.
        #expect(Set(fresh).count == cases.count)
    }

    /// The worker uses an earlier replay's libinput context again when the DMI and the
    /// recorded quirks are the same (what a context reads once, at its start) and no tablet
    /// was replayed in it; the devices are numbered from 1 again and announced at the
    /// replay's start. A device the replay before had at the same place keeps its testbed
    /// entries and node. Every replay still gives what a fresh worker gives.
    @Test func aSessionUsesALibinputContextAgainOnlyWhenWhatItReadAtItsStartIsTheSame() throws {
        let keyboard = try SyntheticRecordings.keyboard()
        let mouse = try SyntheticRecordings.mouse()
        // Two touchpads: one with a DMI modalias and no quirks recorded, one with no DMI and
        // three quirks (as the third-party touchpad-ite and touchpad-3fg recordings have).
        var ite = try SyntheticRecordings.touchpadThreeFingerSwipe()
        ite.dmi = SyntheticRecordings.lenovoDMI
        ite.devices[0].name = "SeatKit Test Touchpad With A DMI"
        var swipe = try SyntheticRecordings.touchpadThreeFingerSwipe()
        swipe.devices[0].quirks = ["ModelTouchpadVisibleMarker=1", "AttrMscTimestamp=watch", "AttrPalmPressureThreshold=180"]
        let two = try SyntheticRecordings.recording([keyboard.devices[0], mouse.devices[0]], name: "two")
        var pen = FrameScript()
        pen.frame([FrameScript.key(0x140, 1), FrameScript.abs(0, 5000), FrameScript.abs(1, 4000), FrameScript.abs(0x18, 0)])
        pen.frame([FrameScript.key(0x14a, 1), FrameScript.abs(0x18, 600)])
        pen.frame([FrameScript.key(0x14a, 0), FrameScript.abs(0x18, 0)])
        pen.frame([FrameScript.key(0x140, 0)])
        let tablet = try SyntheticRecordings.recording([RecordedDevice(
            node: "/dev/input/event9", name: "SeatKit Test Pen Tablet", identity: InputDeviceIdentity(bustype: 3, vendor: 0x1234, product: 0x99, version: 1),
            codes: [1: [0x140, 0x14a, 0x14b], 3: [0, 1, 0x18]],
            absoluteAxes: [0: AbsoluteAxisInfo(minimum: 0, maximum: 20000, resolution: 100), 1: AbsoluteAxisInfo(minimum: 0, maximum: 12000, resolution: 100),
                           0x18: AbsoluteAxisInfo(minimum: 0, maximum: 2047)],
            properties: [EvdevCodes.INPUT_PROP_POINTER], udevProperties: ["ID_INPUT=1", "ID_INPUT_TABLET=1"], frames: pen.frames)], name: "pen")
        let unplugged = ReplayOptions(removals: [(device: 1, time: 20_000)])
        // (recording, options, whether the worker has a context for it from before, how many
        // of its devices an earlier replay left in the testbed, in place or parked, at the
        // same number)
        let steps: [(name: String, recording: Recording, options: ReplayOptions, reuses: Bool, nodes: Int)] = [
            ("keyboard", keyboard, ReplayOptions(), false, 0),
            // No DMI, no recorded quirks, as the keyboard: its context, devices numbered 1 and
            // 2; the keyboard's node stays.
            ("keyboard and mouse, mouse unplugged", two, unplugged, true, 1),
            // The mouse at event100 now: the keyboard's and the mouse's nodes are parked.
            ("mouse, tapping on (refused)", mouse, ReplayOptions(configuration: DeviceConfiguration(tapToClick: true)), true, 0),
            ("pen tablet", tablet, ReplayOptions(), true, 0),
            // The tablet's context was not kept: libinput keeps tablet tools in the context.
            // The keyboard's node comes back from the lot.
            ("keyboard after the tablet", keyboard, ReplayOptions(), false, 1),
            ("touchpad-ite (its DMI)", ite, ReplayOptions(), false, 0),
            ("touchpad-3fg (its quirks)", swipe, ReplayOptions(), false, 0),
            ("touchpad-ite again", ite, ReplayOptions(), true, 1),
            ("touchpad-ite right after", ite, ReplayOptions(), true, 1),
            // Without its quirks, touchpad-3fg reads what the keyboard's context read.
            ("touchpad-3fg without its quirks", swipe, { var o = ReplayOptions(); o.appliesRecordedQuirks = false; return o }(), true, 1),
            ("touchpad-3fg, its quirks, right after", swipe, ReplayOptions(), true, 1),
            ("keyboard and mouse", two, ReplayOptions(), true, 2),
            ("keyboard and mouse again", two, ReplayOptions(), true, 2),
            // Through udev: a fresh context, and a testbed with nothing left from before (nor
            // parked: everything was removed).
            ("keyboard and mouse through udev", two, { var o = ReplayOptions(); o.seat = "seat0"; return o }(), false, 0),
            ("keyboard and mouse after udev", two, ReplayOptions(), true, 0),
        ]
        let session = ReplaySession()
        defer { session.close() }
        for step in steps {
            let fresh = try LibinputReplay(recording: step.recording, options: step.options).run().events
            let (contextsBefore, nodesBefore) = (session.contextsReused, session.nodesReused)
            let warm = try session.replay(step.recording, options: step.options).events
            #expect(warm == fresh, "\(step.name)")
            #expect(session.contextsReused - contextsBefore == (step.reuses ? 1 : 0), "\(step.name)")
            #expect(session.nodesReused - nodesBefore == step.nodes, "\(step.name)")
            // Devices numbered from 1, announced at the recording's start, whatever came before.
            let added = warm.filter { if case .deviceAdded = $0.kind { true } else { false } }
            #expect(added.map(\.device) == Array(1...UInt32(step.recording.devices.count)), "\(step.name)")
        }
        #expect(session.statistics.workersStarted == 1)
    }

    /// The DMI modalias changes between replays (rewritten in place in the testbed) and a
    /// context started after the change reads the new one: libinput's quirk for the Framework
    /// laptop's touchpad (DMI `svnFramework:pnLaptop*`) disables its right button, and the
    /// same touchpad on another machine keeps it. Each replay equals a fresh worker's.
    @Test func aDMIChangeBetweenReplaysReachesTheNextContext() throws {
        let framework = try SyntheticRecordings.frameworkTouchpad(dmi: SyntheticRecordings.frameworkDMI)
        let other = try SyntheticRecordings.frameworkTouchpad(dmi: SyntheticRecordings.lenovoDMI)
        func buttons(_ events: [DeviceEvent]) -> Int {
            events.filter { if case .pointerButton = $0.kind { true } else { false } }.count
        }
        let freshFramework = try LibinputReplay(recording: framework).run().events
        let freshOther = try LibinputReplay(recording: other).run().events
        #expect(buttons(freshFramework) == 0 && buttons(freshOther) == 2)
        let session = ReplaySession()
        defer { session.close() }
        for (name, recording, fresh) in [("Framework", framework, freshFramework), ("other", other, freshOther),
                                         ("Framework again", framework, freshFramework), ("other again", other, freshOther)] {
            #expect(try session.replay(recording).events == fresh, "\(name)")
        }
        #expect(session.contextsReused == 2 && session.nodesReused == 3)
    }

    /// The shim matches libinput's quirks patterns (literals, `*`, `?`) itself (half of a short
    /// replay's instructions were glibc's `fnmatch`): with the C library's answer for every
    /// MatchName and MatchDMIModalias pattern installed against the shared recordings' names
    /// and DMI, and for 200,000 random patterns; '[', '\\' and flags go to the C library.
    @Test func theShimsFnmatchAnswersAsTheCLibrarys() throws {
        let handle = try #require(dlopen(try PreloadShim.libraryPath(worker: nil), RTLD_NOW | RTLD_LOCAL))
        defer { dlclose(handle) }
        typealias Match = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32) -> Int32
        let star = unsafeBitCast(try #require(dlsym(handle, "seatkit_star_fnmatch")), to: Match.self)
        func check(_ pattern: String, _ text: String, flags: Int32 = 0) -> Bool {
            let mine = star(pattern, text, flags)
            // '?' is the shim's only in a single-byte locale; literals and '*' always.
            if mine == -1 { return flags != 0 || pattern.contains(where: { "?[\\".contains($0) }) }
            return flags == 0 && (mine == 0) == (fnmatch(pattern, text, 0) == 0) && (mine == 0 || mine == FNM_NOMATCH)
        }
        var patterns: [String] = []
        var texts: [String] = ["", "dmi:", "*"]
        let directory = "/usr/share/libinput"
        if let dir = opendir(directory) {
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard name.hasSuffix(".quirks"), let f = fopen(directory + "/" + name, "r") else { continue }
                defer { fclose(f) }
                var line = [CChar](repeating: 0, count: 4096)
                while fgets(&line, Int32(line.count), f) != nil {
                    var text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    while text.last == "\n" || text.last == "\r" { text.removeLast() }
                    for key in ["MatchName=", "MatchDMIModalias="] where text.hasPrefix(key) { patterns.append(String(text.dropFirst(key.count))) }
                }
            }
        }
        #expect(patterns.count > 100)
        for (_, recording) in try SharedRecordings.parsedWhereAvailable() {
            texts += recording.devices.map(\.name) + [recording.dmi].compactMap { $0 }
        }
        // Each pattern also against itself with its stars filled in, so that some match.
        texts += patterns.map { $0.replacing("*", with: "x*y") }
        var matched = 0
        for pattern in patterns {
            for text in texts {
                #expect(check(pattern, text), "\(pattern) against \(text)")
                if fnmatch(pattern, text, 0) == 0 { matched += 1 }
            }
        }
        #expect(matched > patterns.count / 2)
        #expect(star("a*b", "axb", FNM_PATHNAME) == -1 && star("[ab]", "a", 0) == -1 && star("a\\*", "a*", 0) == -1)
        #expect(star("dmi:*svnLENOVO:*pvrThinkPad*", "dmi:bvnLENOVO:svnLENOVO:pvrThinkPadX1:", 0) == 0)
        var generator = SplitMix64(seed: 14)
        for _ in 0..<200_000 {
            let pattern = String((0..<Int(generator.next() % 9)).map { _ in Array("ab*?")[Int(generator.next() % 4)] })
            let text = String((0..<Int(generator.next() % 10)).map { _ in Array("ab")[Int(generator.next() % 2)] })
            if !check(pattern, text) {
                Issue.record("\(pattern) against \(text)")
                break
            }
        }
    }

    /// The shim remembers fnmatch answers by the pattern's address (libinput asks the same
    /// thousands of times per replay). The texts at an address change (libinput frees and
    /// allocates the device name for every look-up): the answer must always be the one for
    /// the texts there now.
    @Test func theShimsRememberedFnmatchAnswersAreForTheTextsThereNow() throws {
        let handle = try #require(dlopen(try PreloadShim.libraryPath(worker: nil), RTLD_NOW | RTLD_LOCAL))
        defer { dlclose(handle) }
        typealias Match = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32) -> Int32
        let memo = unsafeBitCast(try #require(dlsym(handle, "seatkit_memo_fnmatch")), to: Match.self)
        let pattern = UnsafeMutablePointer<CChar>.allocate(capacity: 512)
        let text = UnsafeMutablePointer<CChar>.allocate(capacity: 512)
        defer { pattern.deallocate(); text.deallocate() }
        func put(_ s: String, _ buffer: UnsafeMutablePointer<CChar>) {
            let bytes = Array(s.utf8CString)
            for (i, b) in bytes.enumerated() { buffer[i] = b }
        }
        func answer(_ p: String, _ t: String) -> Int32 {
            put(p, pattern)
            put(t, text)
            return memo(pattern, text, 0)
        }
        let dmi = "dmi:bvnLENOVO:bvrN23ET55W(1.30):bd04/18/2019:svnLENOVO:pn20KGS3JQ00:pvrThinkPadX1Carbon6th:rvnLENOVO:rn20KGS3JQ00:rvrNotDefined:cvnLENOVO:ct10:cvrNone:"
        // The same addresses, asked again and again with other texts behind them.
        for _ in 0..<3 {
            #expect(answer("*ITE Tech*", "ITE Tech. Inc. ITE Device(8910) Touchpad") == 0)
            #expect(answer("*ITE Tech*", "ITE Tech. Inc. ITE Device(8910) Touchpad") == 0)
            #expect(answer("*ITE Tech*", "Logitech USB Receiver") == FNM_NOMATCH)
            // The same first byte and length, one byte different further on.
            #expect(answer("*ITE Tech*", "IXE Tech. Inc. ITE Device(8910) Touchpad") == FNM_NOMATCH)
            #expect(answer("*Logitech*", "ITE Tech. Inc. ITE Device(8910) Touchpad") == FNM_NOMATCH)
            #expect(answer("*Logitech*", "Logitech USB Receiver") == 0)
            #expect(answer("*ITE Tech*", "ITE Tech. Inc. ITE Device(8910) Touchpad") == 0)
            #expect(answer("dmi:*svnLENOVO:*pvrThinkPadX1Carbon6th*", dmi) == 0)
            #expect(answer("dmi:*svnLENOVO:*pvrThinkPadX1Carbon7th*", dmi) == FNM_NOMATCH)
            #expect(answer("dmi:*svnLENOVO:*pvrThinkPadX1Carbon6th*", dmi.replacing("Carbon6th", with: "Carbon7th")) == FNM_NOMATCH)
        }
        // Random texts at the same two addresses (and a few others), against the C library.
        var generator = SplitMix64(seed: 1414)
        let others = (0..<3).map { _ in UnsafeMutablePointer<CChar>.allocate(capacity: 32) }
        defer { for o in others { o.deallocate() } }
        var wrong = 0
        for _ in 0..<100_000 {
            let p = String((0..<Int(generator.next() % 7)).map { _ in Array("ab*")[Int(generator.next() % 3)] })
            let t = String((0..<Int(generator.next() % 8)).map { _ in Array("ab")[Int(generator.next() % 2)] })
            let slot = Int(generator.next() % 4)
            let target = slot == 3 ? text : others[slot]
            put(p, pattern)
            put(t, target)
            let mine = memo(pattern, target, 0)
            if (mine == 0) != (fnmatch(p, t, 0) == 0) { wrong += 1 }
        }
        #expect(wrong == 0)
        #expect(memo("a*b", "axb", FNM_PATHNAME) == -1 && memo("[ab]", "a", 0) == -1)
    }

    /// A worker and a caller from different builds (an explicit `SEATKIT_REPLAY_WORKER`
    /// left from an older build) fail the first replay at once, saying what to do, instead of
    /// talking past each other until the 30 s time-out.
    @Test func aWorkerFromAnotherBuildFailsAtOnceSayingSo() throws {
        // This build's worker, asked in another protocol.
        let scratch = try TemporaryDirectory()
        let counters = scratch.path + "/read-counts"
        #expect(writeFile(counters, [UInt8](repeating: 0, count: PreloadShim.counterCount * 8)))
        let command = try SessionWorker.workerCommand(explicit: nil)
        var environment = command.environment
        environment["SEATKIT_REPLAY_ACK"] = counters
        let child = try ChildProcess(executable: command.executable, arguments: command.arguments, environment: environment,
                                     stderrPath: scratch.path + "/stderr")
        var setup = ReplayWorker.Setup()
        setup.protocolVersion = ReplayWorker.protocolVersion - 1
        setup.nodes = ["/dev/input/event0"]
        setup.ptys = [0]
        try writeAll(child.stdinFd, setup.beginCommand, what: "the begin command")
        #expect(child.wait() != 0)
        #expect(child.errorOutput().contains("this worker speaks replay protocol \(ReplayWorker.protocolVersion) and its caller protocol \(ReplayWorker.protocolVersion - 1)"))

        // A worker from before the protocol check answers the first begin command as an
        // unknown node argument (a script stands in for that old build here).
        let old = scratch.path + "/old-worker"
        #expect(writeFile(old, Array("#!/bin/sh\necho 'replay-worker: \(ReplayWorker.staleWorkerAnswer)' >&2\nexit 2\n".utf8)))
        chmod(old, 0o755)
        // An old build's worker comes with its shim (the replay preloads the one beside the
        // worker): a plain build's (CI's TSan run names the plain tool as its worker; a TSan
        // build's shim cannot load into /bin/sh).
        let plainTool = getenv("SEATKIT_REPLAY_WORKER").map { String(cString: $0) } ?? SeatkitToolTests.tool
        let shim = try PreloadShim.libraryPath(worker: plainTool)
        #expect(runProcess("/bin/cp", [shim, scratch.path + "/" + PreloadShim.builtName]).0 == 0)
        let started = monotonicMicroseconds()
        do {
            _ = try LibinputReplay(recording: try SyntheticRecordings.keyboard(), options: ReplayOptions(workerExecutable: old)).run()
            Issue.record("a replay on an old worker succeeded")
        } catch {
            #expect("\(error)".contains("comes from an older build of SeatKit"), "\(error)")
        }
        #expect(monotonicMicroseconds() - started < 10_000_000)
    }

    @Test func aFailedReplayLeavesTheSessionUsable() throws {
        let session = ReplaySession()
        defer { session.close() }
        let keyboard = try SyntheticRecordings.keyboard()
        let expected = try LibinputReplay(recording: keyboard).run().events
        #expect(try session.replay(keyboard).events == expected)
        // Removals need the path backend: refused before anything is sent.
        #expect(throws: ReplayError.self) {
            try session.replay(keyboard, options: { var o = ReplayOptions(removals: [(device: 0, time: 0)]); o.seat = "seat0"; return o }())
        }
        #expect(try session.replay(keyboard).events == expected)
        // A worker that died between replays is replaced, and writing to it raises no
        // SIGPIPE in this process (which would end the test run).
        let pid = try #require(session.workerProcessID)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let after = try session.replay(keyboard)
        #expect(after.events == expected && after.warnings.isEmpty)
        #expect(session.workerProcessID != pid)
        #expect(session.statistics.workersStarted == 3)
    }

    @Test func threadsSharingASessionTakeTurnsOnOneWorker() throws {
        let recordings = [try SyntheticRecordings.keyboard(), try SyntheticRecordings.mouse(),
                          try SyntheticRecordings.touchscreenTwoFingers(), try SyntheticRecordings.touchpadThreeFingerSwipe()]
        let expected = try recordings.map { try LibinputReplay(recording: $0).run().events }
        let session = ReplaySession()
        defer { session.close() }
        // Each thread's outcome in a slot of its own, read after `concurrentPerform` returns (its
        // join orders the writes before the reads): under a `Mutex`, whose lock ThreadSanitizer
        // does not follow, TSan could report the writes as a race (SurfaceIdentityTests did).
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<Result<[DeviceEvent], ReplayError>?>.allocate(capacity: recordings.count)
        results.initialize(repeating: nil)
        defer { _ = results.deinitialize(); results.deallocate() }
        DispatchQueue.concurrentPerform(iterations: recordings.count) { i in
            let outcome: Result<[DeviceEvent], ReplayError>
            do throws(ReplayError) { outcome = .success(try session.replay(recordings[i]).events) } catch { outcome = .failure(error) }
            results[i] = outcome
        }
        for i in recordings.indices {
            #expect(try results[i]!.get() == expected[i], "recording \(i)")
        }
        #expect(session.statistics.workersStarted == 1)
    }

    /// The shim's answers (``EmulatedDevice/ioctlAnswers``) carry what umockdev answered from
    /// the ioctl record before, request by request, for a touchpad (MT slots, axes), a
    /// keyboard (key repeat) and a mouse.
    @Test func theShimsAnswersAreTheIoctlRecordsAnswers() throws {
        let devices = [try SyntheticRecordings.touchpadThreeFingerSwipe().devices[0], try SyntheticRecordings.keyboard().devices[0],
                       try SyntheticRecordings.mouse().devices[0]]
        for device in devices {
            let emulated = EmulatedDevice(device: device, number: 100)
            // The answers file: nr → (result, payload).
            var answers: [UInt8: (result: Int32, payload: [UInt8])] = [:]
            let bytes = emulated.ioctlAnswers
            var offset = 0
            func le32(_ b: [UInt8], _ i: Int) -> Int32 { Int32(bitPattern: UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24) }
            while offset + 12 <= bytes.count {
                let length = Int(le32(bytes, offset + 8))
                answers[bytes[offset]] = (le32(bytes, offset + 4), Array(bytes[(offset + 12)..<(offset + 12 + length)]))
                offset += 12 + length
            }
            #expect(offset == bytes.count)
            // No phys or uniq: ENOENT, as the kernel (and umockdev, lacking the line) answers.
            #expect(answers[0x07]?.result == -Int32(ENOENT) && answers[0x08]?.result == -Int32(ENOENT))
            // The ioctl record umockdev was given: `NAME(ARG) RESULT HEX`.
            var checked = 0
            for line in emulated.ioctlRecord.split(separator: "\n") where !line.hasPrefix("@DEV") {
                let parts = line.split(separator: " ")
                let name = String(parts[0]), result = Int32(parts[1])!
                var payload: [UInt8] = []
                var hex = Array(parts[2].utf8)[...]
                while hex.count >= 2 {
                    payload.append(UInt8(String(decoding: hex.prefix(2), as: UTF8.self), radix: 16)!)
                    hex = hex.dropFirst(2)
                }
                func argument() -> UInt8 { UInt8(name.split(separator: "(")[1].dropLast())! }
                let nr: UInt8
                switch name.split(separator: "(")[0] {
                case "EVIOCGVERSION": nr = 0x01
                case "EVIOCGID": nr = 0x02
                case "EVIOCGREP": nr = 0x03
                case "EVIOCGNAME": nr = 0x06
                case "EVIOCGPROP": nr = 0x09
                case "EVIOCGKEY": nr = 0x18
                case "EVIOCGLED": nr = 0x19
                case "EVIOCGSW": nr = 0x1b
                case "EVIOCGBIT": nr = 0x20 + argument()
                case "EVIOCGABS": nr = 0x40 + argument()
                case "EVIOCGMTSLOTS":
                    // { code, values... }: the shim keeps (code, value) pairs.
                    let pairs = try #require(answers[0x0a]).payload
                    let code = le32(payload, 0), value = le32(payload, 4)
                    #expect(stride(from: 0, to: pairs.count, by: 8).contains { le32(pairs, $0) == code && le32(pairs, $0 + 4) == value }, "MT slots \(code)")
                    checked += 1
                    continue
                default:
                    Issue.record("unexpected line \(line)")
                    continue
                }
                let answer = try #require(answers[nr], "\(name)")
                if nr == 0x06 {
                    // The name: umockdev pads it to the 255 bytes libevdev asks; the shim copies
                    // the string and its NUL, and returns the same length.
                    #expect(answer.result == result && Array(payload.prefix(answer.payload.count)) == answer.payload, "\(name)")
                } else {
                    // Variable-length requests return their size, fixed ones 0: as recorded.
                    #expect(answer.payload == payload && answer.result == result, "\(name)")
                }
                checked += 1
            }
            #expect(checked > 10)
        }
    }
}
