import Testing
import SeatKitReplay

/// The format's variations across libinput versions, on small hand-written files.
@Suite struct RecordingFormatVersionTests {
    static let header = """
        version: 1
        ndevices: 1
        libinput:
          version: "1.11.0"
          git: "unknown"

        """
    static let keyboardDevice = """
        devices:
        - node: /dev/input/event3
          evdev:
            # Name: kbd
            name: "kbd"
            id: [17, 1, 1, 43841]
            codes:
              0: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] # EV_SYN
              1: [1, 28, 30] # EV_KEY
            properties: []

        """

    @Test func oldGroupingWithSeveralFramesInOneItemIsSplitOnSynReport() throws {
        let text = Self.header + Self.keyboardDevice + """
              events:
              - evdev:
                - [  0,      0,   1,  30,     1] # EV_KEY / KEY_A
                - [  0,      0,   0,   0,     0] # ------------ SYN_REPORT (0) ----------
                - [  0,      0,   1,  30,     0] # EV_KEY / KEY_A
                - [  0,      0,   0,   0,     0] # ------------ SYN_REPORT (0) ----------
              - evdev:
                - [  0,   5000,   1,  28,     1]
                - [  0,   5000,   0,   0,     0]

            """
        let r = try RecordingParser.parse(text, source: "old.yml")
        #expect(r.devices[0].frames.map(\.events.count) == [2, 2, 2])
        #expect(r.devices[0].frames.map(\.time) == [0, 0, 5000])
    }

    @Test func systemKeysAtTheTopLevelAsLibinput118To120WroteThem() throws {
        let text = """
            version: 1
            ndevices: 1
            libinput:
              version: "1.19.0"
              git: "unknown"
            system:
            os: "fedora:34"
            kernel: "5.12"
            dmi: "dmi:bvnX:"

            """ + Self.keyboardDevice + "  events:\n"
        let r = try RecordingParser.parse(text, source: "v119.yml")
        #expect(r.operatingSystem == "fedora:34")
        #expect(r.kernel == "5.12")
        #expect(r.dmi == "dmi:bvnX:")
        #expect(r.devices[0].frames.isEmpty)
    }

    @Test func withLibinputItemsAreReadInTheSameItemAndOnTheirOwn() throws {
        let text = Self.header + Self.keyboardDevice + """
              libinput:
                capabilities: [keyboard]
              events:
              - libinput:
                - {type: DEVICE_ADDED, seat: seat0, logical_seat: default}
              - evdev:
                - [  0,  12000,   1,  30,       1] # EV_KEY / KEY_A                     1
                - [  0,  12000,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
                libinput:
                - {time: 0.012000, type: KEYBOARD_KEY, key: 30, state: pressed}
              - hid:
                  time: [  0,  12100]
                  hidraw0: [
                    0x01, 0x02
                  ]

            """
        let r = try RecordingParser.parse(text, source: "with-libinput.yml")
        let d = r.devices[0]
        #expect(d.recordedCapabilities == ["keyboard"])
        #expect(d.libinputEvents.map(\.type) == ["DEVICE_ADDED", "KEYBOARD_KEY"])
        #expect(d.libinputEvents[1].time == 12000)
        #expect(d.libinputEvents[1].number("key") == 30)
        #expect(d.libinputEvents[1].text("state") == "pressed")
        #expect(d.frames.count == 1)
    }

    @Test func misindentedLibinputItemsOf118To120AreReadWithTheirFrame() throws {
        let text = Self.header + Self.keyboardDevice + """
              events:
              - evdev:
                - [  0,  12000,   1,  30,       1]
                - [  0,  12000,   0,   0,       0]
              libinput:
                - {time: 0.012000, type: KEYBOARD_KEY, key: 30, state: pressed}
              - evdev:
                - [  0,  20000,   1,  30,       0]
                - [  0,  20000,   0,   0,       0]
              libinput:
                - {time: 0.020000, type: KEYBOARD_KEY, key: 30, state: released}

            """
        let r = try RecordingParser.parse(text, source: "v119-with-libinput.yml")
        #expect(r.devices[0].frames.count == 2)
        #expect(r.devices[0].libinputEvents.map { $0.text("state") } == ["pressed", "released"])
    }

    @Test func unknownKeysAreIgnoredEverywhere() throws {
        let text = Self.header + "future_toplevel: {a: 1}\n" + Self.keyboardDevice.replacingOccurrences("    properties: []\n", "    properties: []\n    future_evdev_key: [1, 2]\n") + """
              future_device_key:
                nested: yes
              events:
              - evdev:
                - [  0,      0,   1,  30,     1]
                - [  0,      0,   0,   0,     0]
                future_item_key: 3
              - future_item: {x: 1}

            """
        let r = try RecordingParser.parse(text, source: "future.yml")
        #expect(r.devices[0].frames.count == 1)
    }

    @Test func hexHidDescriptorSpanningLinesIsAccepted() throws {
        let text = Self.header + Self.keyboardDevice + """
              hid: [
                0x05, 0x01, 0x09, 0x06, 
                0xc0
              ]
              events:

            """
        let r = try RecordingParser.parse(text, source: "hid.yml")
        #expect(r.devices.count == 1)
    }

    @Test func writerOutputParsesBackToTheSameFrames() throws {
        var script = FrameScript(startingAt: 1_500_000)
        script.frame([FrameScript.key(30, 1)])
        script.frame([FrameScript.key(30, 0)])
        var device = SyntheticDevice.keyboard()
        device.frames = script.frames
        let written = RecordingWriter.text(of: Recording(source: "w", declaredDeviceCount: 1, devices: [device]))
        let r = try RecordingParser.parse(written, source: "w.yml")
        #expect(r.devices[0].frames.map(\.events) == script.frames.map(\.events))
        #expect(r.devices[0].frames.map(\.time) == [1_500_000, 1_510_000])
        #expect(r.devices[0].codes[1] == Array(1...88))
    }
}

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
