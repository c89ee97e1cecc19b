import CSeatKitSupport
import Testing

/// Custom recognizers from C beyond the two-finger double tap (CCustomRecognizerTests):
/// touchpad gestures, destroying one from inside its own handler, and misuse refused.
@Suite struct CCustomRecognizerEdgeTests {
    final class Log {
        var lines: [String] = []
        var destroyInBegan = false
    }

    static func log(_ data: UnsafeMutableRawPointer?) -> Log { Unmanaged<Log>.fromOpaque(data!).takeUnretainedValue() }

    /// Follows libinput's touchpad phases: began, changed, ended; no touch handler at all.
    nonisolated(unsafe) static var touchpadFollower: seatkit_recognizer_interface = {
        var impl = seatkit_recognizer_interface()
        impl.struct_size = MemoryLayout<seatkit_recognizer_interface>.size
        impl.touchpad_gesture = { data, r, event in
            guard let event else { return }
            let g = event.pointee.gesture
            log(data).lines.append("touchpad \(g.phase.rawValue) fingers \(g.fingers) at \(Int(event.pointee.x)),\(Int(event.pointee.y))")
            switch g.phase {
            case SEATKIT_GESTURE_BEGIN: _ = seatkit_recognizer_set_state(r, SEATKIT_RECOGNIZER_BEGAN)
            case SEATKIT_GESTURE_UPDATE: _ = seatkit_recognizer_set_state(r, SEATKIT_RECOGNIZER_CHANGED)
            default: _ = seatkit_recognizer_set_state(r, SEATKIT_RECOGNIZER_ENDED)
            }
        }
        impl.reset = { data, _ in log(data).lines.append("reset") }
        return impl
    }()

    /// Logs every touch call; destroys itself at began when asked.
    nonisolated(unsafe) static var touchLogger: seatkit_recognizer_interface = {
        var impl = seatkit_recognizer_interface()
        impl.struct_size = MemoryLayout<seatkit_recognizer_interface>.size
        impl.touches_began = { data, r, _ in
            log(data).lines.append("began")
            if log(data).destroyInBegan { seatkit_recognizer_destroy(r) }
        }
        impl.touches_moved = { data, _, _ in log(data).lines.append("moved") }
        impl.touches_ended = { data, _, _ in log(data).lines.append("ended") }
        return impl
    }()

    func router() -> (OpaquePointer, OpaquePointer) {
        let router = seatkit_router_create_virtual(0)!
        let output = seatkit_output_create(router, "OUT", 0, 0, 1000, 1000, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)!
        return (router, output)
    }

    @Test func aCustomRecognizerWithATouchpadHandlerFollowsTouchpadGesturesAndNoTouches() {
        let (router, output) = router()
        defer { seatkit_router_destroy(router) }
        let log = Log()
        let data = Unmanaged.passUnretained(log).toOpaque()
        let r = seatkit_recognizer_create_custom(router, "pad", &Self.touchpadFollower, data)
        #expect(seatkit_output_add_recognizer(output, r))
        var states: [UInt32] = []
        let box = Unmanaged.passRetained(StatesBox()).toOpaque()
        defer { Unmanaged<StatesBox>.fromOpaque(box).release() }
        seatkit_recognizer_set_callback(r, { data, _, state in
            Unmanaged<StatesBox>.fromOpaque(data!).takeUnretainedValue().states.append(state.rawValue)
        }, box)
        seatkit_router_notify_touch_down(router, 1000, 1, 0, 10, 10)
        seatkit_router_notify_touch_frame(router, 1000, 1)
        seatkit_router_notify_touch_up(router, 2000, 1, 0)
        seatkit_router_notify_touch_frame(router, 2000, 1)
        #expect(log.lines.isEmpty, "a recognizer without touch handlers takes no part in touches")
        seatkit_router_notify_pointer_motion_absolute(router, 3000, 2, 500, 400)
        for (phase, time) in [(SEATKIT_GESTURE_BEGIN, 4000), (SEATKIT_GESTURE_UPDATE, 5000), (SEATKIT_GESTURE_END, 6000)] {
            var g = seatkit_touchpad_gesture(kind: SEATKIT_TOUCHPAD_SWIPE, phase: phase, fingers: 3, dx: 5, dy: 0,
                                             dx_unaccel: 5, dy_unaccel: 0, scale: 1, rotation: 0)
            seatkit_router_notify_touchpad_gesture(router, Int64(time), 2, &g)
        }
        states = Unmanaged<StatesBox>.fromOpaque(box).takeUnretainedValue().states
        #expect(log.lines == ["touchpad 0 fingers 3 at 500,400", "touchpad 1 fingers 3 at 500,400", "touchpad 2 fingers 3 at 500,400", "reset"])
        #expect(states == [SEATKIT_RECOGNIZER_BEGAN.rawValue, SEATKIT_RECOGNIZER_CHANGED.rawValue, SEATKIT_RECOGNIZER_ENDED.rawValue])
        #expect(seatkit_recognizer_get_state(r) == SEATKIT_RECOGNIZER_POSSIBLE)
    }

    final class StatesBox { var states: [UInt32] = [] }

    @Test func aCustomRecognizerDestroyedInItsOwnHandlerIsNeverCalledAgain() {
        let (router, output) = router()
        defer { seatkit_router_destroy(router) }
        let log = Log()
        log.destroyInBegan = true
        let r = seatkit_recognizer_create_custom(router, "doomed", &Self.touchLogger, Unmanaged.passUnretained(log).toOpaque())
        #expect(seatkit_output_add_recognizer(output, r))
        seatkit_router_notify_touch_down(router, 1000, 1, 0, 10, 10)
        seatkit_router_notify_touch_frame(router, 1000, 1)
        seatkit_router_notify_touch_motion(router, 2000, 1, 0, 20, 10)
        seatkit_router_notify_touch_frame(router, 2000, 1)
        seatkit_router_notify_touch_up(router, 3000, 1, 0)
        seatkit_router_notify_touch_frame(router, 3000, 1)
        #expect(log.lines == ["began"])
        #expect(seatkit_recognizer_get_state(r) == SEATKIT_RECOGNIZER_POSSIBLE)  // a dead handle: refused, the default answer
    }

    @Test func customOnlyCallsRefuseBuiltInsAndDetachedOnesAndTouchesAreCopiedWithinCapacity() {
        let (router, output) = router()
        defer { seatkit_router_destroy(router) }
        let log = Log()
        let r = seatkit_recognizer_create_custom(router, "c", &Self.touchLogger, Unmanaged.passUnretained(log).toOpaque())
        let pan = seatkit_recognizer_create_pan(router, "pan", 1, 0)
        #expect(!seatkit_recognizer_schedule(r, 5000), "detached: no clock")
        #expect(!seatkit_recognizer_schedule(pan, 5000))
        #expect(!seatkit_recognizer_set_progress(pan, 0.5))
        #expect(!seatkit_recognizer_set_progress(r, .nan))
        #expect(seatkit_recognizer_set_progress(r, 7) && seatkit_recognizer_get_progress(r) == 1)
        #expect((seatkit_recognizer_create_custom(router, "none", nil, nil) as OpaquePointer?) == nil)
        #expect(seatkit_output_add_recognizer(output, r))
        seatkit_router_notify_touch_down(router, 1000, 1, 0, 10, 10)
        seatkit_router_notify_touch_down(router, 1000, 1, 1, 30, 10)
        seatkit_router_notify_touch_frame(router, 1000, 1)
        var one = seatkit_touch_point()
        #expect(seatkit_recognizer_get_touches(r, &one, 1) == 2)
        #expect(one.x == 10 && seatkit_recognizer_get_touches(r, nil, 0) == 2)
        #expect(!seatkit_recognizer_set_commit_threshold(r, 3), "a custom recognizer keeps its own threshold")
        #expect(!seatkit_recognizer_set_commit_threshold(pan, 3))
        #expect(!seatkit_recognizer_get_velocity(r, nil, nil, nil))
    }
}
