import CSeatKitSupport
import Testing

/// Input kinds, composed recognizers, high priority and masks from C (issue 30, goals 3 and
/// 5), through the header's functions on a virtual clock.
@Suite struct CCompositionTests {
    final class Log {
        var lines: [String] = []
        /// The callbacks' boxes, alive as long as the log.
        var watches: [AnyObject] = []
    }

    static func log(_ data: UnsafeMutableRawPointer?) -> Log { Unmanaged<Log>.fromOpaque(data!).takeUnretainedValue() }

    static let names: [UInt32: String] = [
        SEATKIT_RECOGNIZER_BEGAN.rawValue: "began", SEATKIT_RECOGNIZER_CHANGED.rawValue: "changed",
        SEATKIT_RECOGNIZER_ENDED.rawValue: "ended", SEATKIT_RECOGNIZER_CANCELLED.rawValue: "cancelled",
        SEATKIT_RECOGNIZER_FAILED.rawValue: "failed", SEATKIT_RECOGNIZER_RECOGNIZED.rawValue: "recognized",
    ]

    /// A recognizer's name and the log its callback writes to.
    final class Watch {
        let name: String
        unowned let log: Log
        init(_ name: String, _ log: Log) {
            self.name = name
            self.log = log
        }
    }

    /// Logs "name:state" for `recognizer` into `log`.
    func watch(_ recognizer: OpaquePointer?, _ name: String, _ log: Log) {
        let w = Watch(name, log)
        log.watches.append(w)
        seatkit_recognizer_set_callback(recognizer, { data, _, state in
            let w = Unmanaged<Watch>.fromOpaque(data!).takeUnretainedValue()
            w.log.lines.append("\(w.name):\(CCompositionTests.names[state.rawValue] ?? "?")")
        }, Unmanaged.passUnretained(w).toOpaque())
    }

    func router() -> (OpaquePointer, OpaquePointer, OpaquePointer) {
        let router = seatkit_router_create_virtual(0)!
        let output = seatkit_output_create(router, "OUT", 0, 0, 1000, 1000, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)!
        let surface = seatkit_surface_create(router, "page", 0, 0, 1000, 1000)!
        _ = seatkit_surface_add_child(seatkit_output_get_root(output), surface)
        return (router, output, surface)
    }

    func tap(_ router: OpaquePointer, at time: Int64, id: Int32) {
        seatkit_router_notify_touch_down(router, time, 1, id, 100, 100)
        seatkit_router_notify_touch_frame(router, time, 1)
        seatkit_router_notify_touch_up(router, time + 10_000, 1, id)
        seatkit_router_notify_touch_frame(router, time + 10_000, 1)
    }

    @Test(.serialized, arguments: [false, true])
    func anExclusiveDoubleTapBeforeATapFromCGivesTheTapOnlyAfterTheDoubleTapFailed(secondTap: Bool) {
        let (router, _, page) = router()
        defer { seatkit_router_destroy(router) }
        let log = Log()
        let double = seatkit_recognizer_create_tap(router, "double", 2, 1)
        let single = seatkit_recognizer_create_tap(router, "single", 1, 1)
        let taps = seatkit_recognizer_create_exclusive(router, "taps", double, single)
        #expect(taps != nil)
        watch(double, "double", log)
        watch(single, "single", log)
        watch(taps, "taps", log)
        #expect(seatkit_surface_add_recognizer(page, taps))
        tap(router, at: 10_000, id: 0)
        #expect(log.lines.isEmpty)
        if secondTap {
            tap(router, at: 100_000, id: 1)
            #expect(log.lines == ["double:recognized", "single:failed", "taps:recognized"])
        } else {
            seatkit_router_advance_clock(router, 319_000)
            #expect(log.lines.isEmpty)
            seatkit_router_advance_clock(router, 320_000)   // 300 ms after the up
            #expect(log.lines == ["double:failed", "single:recognized", "taps:recognized"])
        }
        #expect(seatkit_recognizer_get_state(taps) == SEATKIT_RECOGNIZER_POSSIBLE)
    }

    @Test func aSequenceFromCDragsOnlyAfterTheHold() {
        let (router, _, page) = router()
        defer { seatkit_router_destroy(router) }
        let log = Log()
        let hold = seatkit_recognizer_create_long_press(router, "hold", 500_000, 1)
        let drag = seatkit_recognizer_create_pan(router, "drag", 1, 0)
        let both = seatkit_recognizer_create_sequence(router, "hold-drag", hold, drag)
        watch(both, "hold-drag", log)
        #expect(seatkit_surface_add_recognizer(page, both))
        #expect(seatkit_recognizer_get_winner(both) == hold)
        seatkit_router_notify_touch_down(router, 0, 1, 0, 100, 100)
        seatkit_router_notify_touch_frame(router, 0, 1)
        seatkit_router_advance_clock(router, 500_000)
        #expect(log.lines == ["hold-drag:began"])
        #expect(seatkit_recognizer_get_winner(both) == drag)
        seatkit_router_notify_touch_motion(router, 600_000, 1, 0, 200, 100)
        seatkit_router_notify_touch_frame(router, 600_000, 1)
        seatkit_router_notify_touch_up(router, 700_000, 1, 0)
        seatkit_router_notify_touch_frame(router, 700_000, 1)
        #expect(log.lines == ["hold-drag:began", "hold-drag:changed", "hold-drag:ended"])
    }

    func pen(_ phase: seatkit_pen_phase, _ x: Double, _ y: Double, time: Int64) -> seatkit_pen_event {
        var e = seatkit_pen_event()
        e.time_usec = time
        e.device = 4
        e.phase = phase
        e.tool_type = SEATKIT_PEN_TOOL_PEN
        e.tool_serial = 7
        e.changed = SEATKIT_PEN_AXIS_POSITION.rawValue
        e.x = x
        e.y = y
        return e
    }

    nonisolated(unsafe) static var penLogger: seatkit_responder_interface = {
        var impl = seatkit_responder_interface()
        impl.struct_size = MemoryLayout<seatkit_responder_interface>.size
        impl.pen_down = { data, _, _ in log(data).lines.append("page.down"); return SEATKIT_HANDLED }
        impl.pen_moved = { data, e, _ in
            if e!.pointee.phase == SEATKIT_PEN_MOVED { log(data).lines.append("page.stroke") }
            return SEATKIT_HANDLED
        }
        impl.pen_up = { data, e, _ in
            log(data).lines.append(e!.pointee.cancelled ? "page.cancelled" : "page.up")
            return SEATKIT_HANDLED
        }
        return impl
    }()

    @Test(arguments: [true, false])
    func aPenStrokeFromCIsAPanUnlessThePanRefusesPens(acceptsPens: Bool) {
        let (router, _, page) = router()
        defer { seatkit_router_destroy(router) }
        let log = Log()
        withUnsafePointer(to: &Self.penLogger) { seatkit_surface_set_responder(page, $0, Unmanaged.passUnretained(log).toOpaque()) }
        let pan = seatkit_recognizer_create_pan(router, "pan", 1, 0)
        watch(pan, "pan", log)
        #expect(seatkit_recognizer_get_supported_input_kinds(pan) == SEATKIT_INPUT_TOUCH.rawValue | SEATKIT_INPUT_PEN.rawValue | SEATKIT_INPUT_POINTER.rawValue)
        #expect(seatkit_recognizer_get_input_kinds(pan) == SEATKIT_INPUT_TOUCH.rawValue | SEATKIT_INPUT_PEN.rawValue)
        if !acceptsPens { #expect(seatkit_recognizer_set_input_kinds(pan, SEATKIT_INPUT_TOUCH.rawValue)) }
        #expect(seatkit_surface_add_recognizer(page, pan))
        var events = [pen(SEATKIT_PEN_PROXIMITY_IN, 100, 100, time: 1000), pen(SEATKIT_PEN_DOWN, 100, 100, time: 2000),
                      pen(SEATKIT_PEN_MOVED, 200, 100, time: 3000), pen(SEATKIT_PEN_MOVED, 300, 100, time: 4000),
                      pen(SEATKIT_PEN_UP, 300, 100, time: 5000)]
        for i in events.indices { withUnsafePointer(to: &events[i]) { seatkit_router_notify_pen(router, $0) } }
        if acceptsPens {
            #expect(log.lines == ["page.down", "page.cancelled", "pan:began", "pan:changed", "pan:ended"])
            #expect(seatkit_recognizer_get_current_input_kind(pan) == SEATKIT_INPUT_PEN.rawValue)
        } else {
            #expect(log.lines == ["page.down", "page.stroke", "page.stroke", "page.up"])
        }
    }

    @Test func aHighPriorityParentWithMaskNoneFromCKeepsTheChildsRecognizerFromRunning() {
        let (router, _, page) = router()
        defer { seatkit_router_destroy(router) }
        let row = seatkit_surface_create(router, "row", 0, 0, 1000, 200)!
        #expect(seatkit_surface_add_child(page, row))
        let log = Log()
        let rowTap = seatkit_recognizer_create_tap(router, "row-tap", 1, 1)
        let pageTap = seatkit_recognizer_create_tap(router, "page-tap", 1, 1)
        watch(rowTap, "row-tap", log)
        watch(pageTap, "page-tap", log)
        #expect(seatkit_surface_add_recognizer(row, rowTap))
        #expect(seatkit_surface_add_recognizer(page, pageTap))
        seatkit_recognizer_set_high_priority(pageTap, true)
        #expect(seatkit_recognizer_set_mask(pageTap, SEATKIT_MASK_NONE.rawValue))
        tap(router, at: 10_000, id: 0)
        #expect(log.lines.isEmpty)
        #expect(seatkit_recognizer_set_mask(pageTap, SEATKIT_MASK_ALL.rawValue))
        tap(router, at: 100_000, id: 1)
        #expect(log.lines.sorted() == ["page-tap:recognized", "row-tap:failed"])
    }

    @Test func misuseIsRefusedWithNothingChanged() {
        let (router, _, _) = router()
        defer { seatkit_router_destroy(router) }
        let a = seatkit_recognizer_create_tap(router, "a", 1, 1)
        let b = seatkit_recognizer_create_pan(router, "b", 1, 0)
        #expect(!seatkit_recognizer_set_input_kinds(a, 0x100))
        #expect(seatkit_recognizer_get_input_kinds(a) == SEATKIT_INPUT_TOUCH.rawValue | SEATKIT_INPUT_PEN.rawValue)
        #expect(!seatkit_recognizer_set_mask(a, 0x4))
        #expect((seatkit_recognizer_create_sequence(router, "self", a, a) as OpaquePointer?) == nil)
        #expect((seatkit_recognizer_create_exclusive(router, "null", a, nil) as OpaquePointer?) == nil)
        let other = seatkit_router_create_virtual(0)!
        defer { seatkit_router_destroy(other) }
        let foreign = seatkit_recognizer_create_tap(other, "foreign", 1, 1)
        #expect((seatkit_recognizer_create_simultaneous(router, "foreign", a, foreign) as OpaquePointer?) == nil)
        let ab = seatkit_recognizer_create_simultaneous(router, "ab", a, b)
        #expect(ab != nil)
        let c = seatkit_recognizer_create_tap(router, "c", 1, 1)
        #expect((seatkit_recognizer_create_sequence(router, "stolen", a, c) as OpaquePointer?) == nil, "a is ab's part already")
        #expect(seatkit_recognizer_get_winner(a) == nil)
        seatkit_recognizer_destroy(a)       // a part's handle: its callbacks stop, the composite goes on
        #expect(seatkit_recognizer_get_state(ab) == SEATKIT_RECOGNIZER_POSSIBLE)
    }
}
