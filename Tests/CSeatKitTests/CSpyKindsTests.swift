import CSeatKitSupport
import Testing

extension TheProcessWideCLog {
    /// `seatkit_router_add_spy_for_kinds`: a C spy told only the event types of its mask,
    /// beside spies of `seatkit_router_add_spy`, which are told every type as before.
    @Suite struct CSpyKindsTests {
        init() {
            forgetLoggedLines()
            seatkit_log_init(SEATKIT_ERROR, captureLogForThreads)
        }

        /// What a spy was told, by `seatkit_input_event_type`.
        final class Seen {
            var types: [UInt32] = []
        }

        private static let record: seatkit_spy_func_t = { data, event, _ in
            Unmanaged<Seen>.fromOpaque(data!).takeUnretainedValue().types.append(event!.pointee.type.rawValue)
        }

        private func bit(_ type: seatkit_input_event_type) -> UInt32 { 1 << type.rawValue }

        private func makeRouter() -> OpaquePointer {
            let router = seatkit_router_create_virtual(0)!
            let output = seatkit_output_create(router, "OUT-1", 0, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)!
            let surface = seatkit_surface_create(router, "app", 0, 0, 800, 600)!
            _ = seatkit_surface_add_child(seatkit_output_get_root(output), surface)
            return router
        }

        /// A touch (down, two motions, up, each with its frame), a pointer motion, a button
        /// press and release, a key press and release: 15 events of 7 types.
        private func play(_ router: OpaquePointer) {
            seatkit_router_notify_touch_down(router, 1000, 1, 0, 10, 10)
            seatkit_router_notify_touch_frame(router, 1000, 1)
            seatkit_router_notify_touch_motion(router, 2000, 1, 0, 12, 10)
            seatkit_router_notify_touch_frame(router, 2000, 1)
            seatkit_router_notify_touch_motion(router, 3000, 1, 0, 14, 10)
            seatkit_router_notify_touch_frame(router, 3000, 1)
            seatkit_router_notify_touch_up(router, 4000, 1, 0)
            seatkit_router_notify_touch_frame(router, 4000, 1)
            seatkit_router_notify_pointer_motion(router, 5000, 2, 1, 1, 1, 1)
            seatkit_router_notify_pointer_button(router, 6000, 2, 0x110, SEATKIT_BUTTON_PRESSED)
            seatkit_router_notify_pointer_button(router, 7000, 2, 0x110, SEATKIT_BUTTON_RELEASED)
            seatkit_router_notify_key(router, 8000, 3, 30, SEATKIT_KEY_PRESSED)
            seatkit_router_notify_key(router, 9000, 3, 30, SEATKIT_KEY_RELEASED)
        }

        @Test func aSpyOfFramesAloneIsToldTheFramesAndNoMotion() {
            let router = makeRouter()
            let seen = Seen()
            let spy = seatkit_router_add_spy_for_kinds(router, bit(SEATKIT_INPUT_TOUCH_FRAME), Self.record,
                                                       Unmanaged.passUnretained(seen).toOpaque())
            #expect(spy != nil)
            play(router)
            #expect(seen.types == Array(repeating: SEATKIT_INPUT_TOUCH_FRAME.rawValue, count: 4))
            seatkit_spy_destroy(spy)
            seatkit_router_destroy(router)
        }

        @Test func aSpyOfAddSpyIsStillToldEveryEventBesideASpyOfSomeKinds() {
            let router = makeRouter()
            let all = Seen(), some = Seen()
            let old = seatkit_router_add_spy(router, Self.record, Unmanaged.passUnretained(all).toOpaque())
            let downs = seatkit_router_add_spy_for_kinds(router, bit(SEATKIT_INPUT_TOUCH_DOWN) | bit(SEATKIT_INPUT_KEY),
                                                         Self.record, Unmanaged.passUnretained(some).toOpaque())
            play(router)
            let d = SEATKIT_INPUT_TOUCH_DOWN.rawValue, m = SEATKIT_INPUT_TOUCH_MOTION.rawValue
            let u = SEATKIT_INPUT_TOUCH_UP.rawValue, f = SEATKIT_INPUT_TOUCH_FRAME.rawValue
            let p = SEATKIT_INPUT_POINTER_MOTION.rawValue, b = SEATKIT_INPUT_POINTER_BUTTON.rawValue
            let k = SEATKIT_INPUT_KEY.rawValue
            #expect(all.types == [d, f, m, f, m, f, u, f, p, b, b, k, k])
            #expect(some.types == [d, k, k])
            seatkit_spy_destroy(old)
            seatkit_spy_destroy(downs)
            seatkit_router_destroy(router)
        }

        @Test func kindsAllIsEveryEventAndNoBitIsNone() {
            let router = makeRouter()
            let all = Seen(), none = Seen(), unknownBits = Seen()
            let a = seatkit_router_add_spy_for_kinds(router, UInt32.max, Self.record, Unmanaged.passUnretained(all).toOpaque())
            let n = seatkit_router_add_spy_for_kinds(router, 0, Self.record, Unmanaged.passUnretained(none).toOpaque())
            // Bits past SEATKIT_INPUT_UNKNOWN name no type of this version.
            let u = seatkit_router_add_spy_for_kinds(router, 0xFFFF_0000, Self.record, Unmanaged.passUnretained(unknownBits).toOpaque())
            #expect(a != nil && n != nil && u != nil)
            play(router)
            #expect(all.types.count == 13)
            #expect(none.types.isEmpty)
            #expect(unknownBits.types.isEmpty)
            for spy in [a, n, u] { seatkit_spy_destroy(spy) }
            seatkit_router_destroy(router)
        }

        /// The three touchpad gestures share one type, so one bit: swipe, pinch and hold.
        @Test func theTouchpadGestureBitCoversSwipesPinchesAndHolds() {
            let router = makeRouter()
            let seen = Seen()
            let spy = seatkit_router_add_spy_for_kinds(router, bit(SEATKIT_INPUT_TOUCHPAD_GESTURE), Self.record,
                                                       Unmanaged.passUnretained(seen).toOpaque())
            var t: Int64 = 1000
            for kind in [SEATKIT_TOUCHPAD_SWIPE, SEATKIT_TOUCHPAD_PINCH, SEATKIT_TOUCHPAD_HOLD] {
                for phase in [SEATKIT_GESTURE_BEGIN, SEATKIT_GESTURE_END] {
                    var g = seatkit_touchpad_gesture(kind: kind, phase: phase, fingers: 3, dx: 0, dy: 0, dx_unaccel: 0,
                                                     dy_unaccel: 0, scale: 1, rotation: 0)
                    seatkit_router_notify_touchpad_gesture(router, t, 4, &g)
                    t += 1000
                }
            }
            seatkit_router_notify_key(router, t, 3, 30, SEATKIT_KEY_PRESSED)
            #expect(seen.types == Array(repeating: SEATKIT_INPUT_TOUCHPAD_GESTURE.rawValue, count: 6))
            seatkit_spy_destroy(spy)
            seatkit_router_destroy(router)
        }

        /// The wlroots kiosk's idle spy (SEATKIT_INPUT_KINDS_ACTIVITY in seatkit.h) observes downs and frames
        /// instead of motions: every device frame of a drag reaches it, also when a filter took
        /// the touch (the wake filter swallows the waking touch).
        @Test func aSpyOfDownsAndFramesSeesEveryFrameOfADragAFilterTook() {
            let router = makeRouter()
            var takeDowns = seatkit_filter_interface()
            takeDowns.struct_size = MemoryLayout<seatkit_filter_interface>.size
            takeDowns.filter = { _, e in e!.pointee.type == SEATKIT_INPUT_TOUCH_DOWN ? SEATKIT_FILTER_CONSUME : SEATKIT_FILTER_PASS }
            let filter = seatkit_router_add_filter(router, &takeDowns, nil)
            let seen = Seen()
            let spy = seatkit_router_add_spy_for_kinds(router, bit(SEATKIT_INPUT_TOUCH_DOWN) | bit(SEATKIT_INPUT_TOUCH_FRAME),
                                                       Self.record, Unmanaged.passUnretained(seen).toOpaque())
            play(router)
            let d = SEATKIT_INPUT_TOUCH_DOWN.rawValue, f = SEATKIT_INPUT_TOUCH_FRAME.rawValue
            #expect(seen.types == [d, f, f, f, f])
            seatkit_spy_destroy(spy)
            seatkit_filter_destroy(filter)
            seatkit_router_destroy(router)
        }

        @Test func aNullRouterOrObserveFunctionIsRefusedAndLogged() {
            let router = makeRouter()
            #expect(seatkit_router_add_spy_for_kinds(router, 1, nil, nil) == nil)
            #expect(loggedLines.last == "seatkit_router_add_spy_for_kinds: NULL observe function; refused")
            #expect(seatkit_router_add_spy_for_kinds(nil, 1, Self.record, nil) == nil)
            #expect(loggedLines.last?.hasPrefix("seatkit_router_add_spy_for_kinds") == true, "\(loggedLines)")
            seatkit_router_destroy(router)
        }
    }
}
