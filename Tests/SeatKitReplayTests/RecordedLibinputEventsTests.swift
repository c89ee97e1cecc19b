import Testing
import SeatKit
import SeatKitLibinput
import SeatKitReplay

/// `--with-libinput` files replay from their recorded libinput events, without umockdev.
@Suite struct RecordedLibinputEventsTests {
    static let touchscreen = """
        version: 1
        ndevices: 1
        libinput:
          version: "1.25.0"
          git: "unknown"
        system:
          kernel: "6.8"
          dmi: "dmi:bvnX:"
        devices:
        - node: /dev/input/event7
          evdev:
            name: "Kiosk Touch"
            id: [24, 1, 2, 3]
            codes:
              0: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] # EV_SYN
              1: [330] # EV_KEY
              3: [0, 1, 47, 53, 54, 57] # EV_ABS
            absinfo:
              0: [0, 4095, 0, 0, 16]
              1: [0, 4095, 0, 0, 16]
              47: [0, 9, 0, 0, 0]
              53: [0, 4095, 0, 0, 16]
              54: [0, 4095, 0, 0, 16]
              57: [0, 65535, 0, 0, 0]
            properties: [1]
          libinput:
            size: [256, 256]
            capabilities: [touch]
          events:
          - libinput:
            - {type: DEVICE_ADDED, seat: seat0, logical_seat: default}
          - evdev:
            - [  0,  10000,   3,  47,       0] # EV_ABS / ABS_MT_SLOT               0
            - [  0,  10000,   3,  57,       5] # EV_ABS / ABS_MT_TRACKING_ID        5
            - [  0,  10000,   3,  53,    3482] # EV_ABS / ABS_MT_POSITION_X      3482
            - [  0,  10000,   3,  54,    3499] # EV_ABS / ABS_MT_POSITION_Y      3499
            - [  0,  10000,   1, 330,       1] # EV_KEY / BTN_TOUCH                 1
            - [  0,  10000,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +10ms
            libinput:
            - {time: 0.010000, type: TOUCH_DOWN, slot: 0, seat_slot: 0, point: [217.62, 218.69], transformed: [ 85.01,  85.42]}
            - {time: 0.010000, type: TOUCH_FRAME}
          - evdev:
            - [  0,  30000,   3,  57,      -1] # EV_ABS / ABS_MT_TRACKING_ID       -1
            - [  0,  30000,   1, 330,       0] # EV_KEY / BTN_TOUCH                 0
            - [  0,  30000,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +20ms
            libinput:
            - {time: 0.030000, type: TOUCH_UP, slot: 0, seat_slot: 0}
            - {time: 0.030000, type: TOUCH_FRAME}
          - libinput:
            - {time: 0.500000, type: SWITCH_TOGGLE, switch: 0, state: on}

        """

    @Test func recordedEventsBecomeDeviceEventsInTimeOrder() throws {
        let recording = try RecordingParser.parse(Self.touchscreen, source: "kiosk-with-libinput.yml")
        let events = try RecordedLibinputEvents.events(of: recording)
        #expect(events.map(\.time) == [10_000, 10_000, 10_000, 30_000, 30_000, 500_000])
        #expect(events[0].kind == .deviceAdded(DeviceDescription(name: "Kiosk Touch", systemName: "event7", capabilities: .touch)))
        guard case .touchDown(0, let x, let y) = events[1].kind else {
            Issue.record("\(events[1])")
            return
        }
        #expect(abs(x - 0.8501) < 1e-9 && abs(y - 0.8542) < 1e-9)
        #expect(events[5].kind == .switchToggle(.lid, on: true))
    }

    @Test func theTapLandsOnOKWithoutUmockdev() throws {
        let recording = try RecordingParser.parse(Self.touchscreen, source: "kiosk-with-libinput.yml")
        let layout = try SurfaceLayout.parse("output DSI-1 800x480\nsurface ok-button 600,380,160x60 in DSI-1\n", source: "kiosk")
        let harness = ReplayHarness(layout: layout)
        let run = harness.route(try RecordedLibinputEvents.events(of: recording))
        #expect(run.surfaces(receiving: .touchesEnded) == ["ok-button"])
    }

    @Test func aFileWithoutLibinputEventsSaysSo() throws {
        let recording = try SyntheticRecordings.mouse()
        #expect(throws: RecordingError.self) { try RecordedLibinputEvents.events(of: recording) }
    }

    @Test func aBadRecordedEventNamesItsLine() throws {
        let broken = Self.touchscreen.replacingOccurrences("seat_slot: 0, point", "seat_slot: zero, point")
        let recording = try RecordingParser.parse(broken, source: "bad.yml")
        do {
            _ = try RecordedLibinputEvents.events(of: recording)
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 40)
            #expect(error.message.contains("seat_slot"))
        }
    }
}
