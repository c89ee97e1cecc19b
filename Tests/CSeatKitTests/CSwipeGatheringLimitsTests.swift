import CSeatKitSupport
import Testing

/// The swipe's gathering limits from C (`seatkit_recognizer_set_maximum_travel_until_all_touches`
/// and `seatkit_recognizer_set_maximum_delay_until_all_touches`), set as the wlroots kiosk sets
/// them on its three-finger switch: a one-finger drag fails the swipe at the motion past the
/// travel, a late third finger fails it at its down, 0 turns a limit off, and every other
/// kind refuses them with a log line.
extension TheProcessWideCLog {
    @Suite struct CSwipeGatheringLimitsTests {
        typealias Log = CCompositionTests.Log

        init() {
            forgetLoggedLines()
            seatkit_log_init(SEATKIT_ERROR, captureLog)
        }

        /// The app's touch calls, as the responder saw them (`cancelled`: touches, not calls).
        final class App {
            var moved = 0, ended = 0, cancelled = 0
        }

        nonisolated(unsafe) static var appResponder: seatkit_responder_interface = {
            var impl = seatkit_responder_interface()
            impl.struct_size = MemoryLayout<seatkit_responder_interface>.size
            impl.touches_began = { _, _, _ in SEATKIT_HANDLED }
            impl.touches_moved = { data, _, _ in app(data).moved += 1; return SEATKIT_HANDLED }
            impl.touches_ended = { data, _, _ in app(data).ended += 1; return SEATKIT_HANDLED }
            impl.touches_cancelled = { data, event, _ in app(data).cancelled += event!.pointee.touch_count }
            return impl
        }()

        static func app(_ data: UnsafeMutableRawPointer?) -> App {
            Unmanaged<App>.fromOpaque(data!).takeUnretainedValue()
        }

        /// Runs `body` on a virtual-clock router with one 1000 x 1000 output filled by an app
        /// surface, touch device 1 100 mm wide (10 layout units per millimetre), and the
        /// wlroots kiosk's switch on the output: a discrete three-finger swipe left or right
        /// whose states go to `log` as "swipe:STATE", its limits set to `travel` mm and
        /// `delay` µs (the kiosk's 10 mm and 250 ms unless told).
        func kiosk(travel: Double = 10, delay: Int64 = 250_000,
                   _ body: (_ router: OpaquePointer, _ swipe: OpaquePointer, _ app: App, _ log: Log) -> Void) {
            let log = Log(), app = App()
            let router = seatkit_router_create_virtual(0)!
            defer { seatkit_router_destroy(router); withExtendedLifetime((log, app)) {} }
            let output = seatkit_output_create(router, "OUT", 0, 0, 1000, 1000, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)!
            let surface = seatkit_surface_create(router, "app", 0, 0, 1000, 1000)!
            withUnsafePointer(to: &Self.appResponder) {
                seatkit_surface_set_responder(surface, $0, Unmanaged.passUnretained(app).toOpaque())
            }
            _ = seatkit_surface_add_child(seatkit_output_get_root(output), surface)
            var panel = seatkit_device_info()
            panel.capabilities = UInt32(SEATKIT_DEVICE_TOUCH.rawValue)
            panel.width_mm = 100
            panel.height_mm = 100
            seatkit_router_notify_device_added(router, 0, 1, &panel)
            let swipe = seatkit_recognizer_create_swipe(router, "switch-app", SEATKIT_SWIPE_LEFT.rawValue | SEATKIT_SWIPE_RIGHT.rawValue, 3)!
            #expect(seatkit_recognizer_set_maximum_travel_until_all_touches(swipe, travel))
            #expect(seatkit_recognizer_set_maximum_delay_until_all_touches(swipe, delay))
            CCompositionTests().watch(swipe, "swipe", log)
            #expect(seatkit_output_add_recognizer(output, swipe))
            body(router, swipe, app, log)
        }

        func down(_ router: OpaquePointer, _ t: Int64, _ id: Int32, _ x: Double, _ y: Double) {
            seatkit_router_notify_touch_down(router, t, 1, id, x, y)
            seatkit_router_notify_touch_frame(router, t, 1)
        }

        func move(_ router: OpaquePointer, _ t: Int64, _ id: Int32, _ x: Double, _ y: Double) {
            seatkit_router_notify_touch_motion(router, t, 1, id, x, y)
            seatkit_router_notify_touch_frame(router, t, 1)
        }

        func up(_ router: OpaquePointer, _ t: Int64, _ id: Int32) {
            seatkit_router_notify_touch_up(router, t, 1, id)
            seatkit_router_notify_touch_frame(router, t, 1)
        }

        /// Where the swipe's copy of its first touch is (layout x), or -1 if it follows none.
        func seenX(_ swipe: OpaquePointer) -> Double {
            var point = seatkit_touch_point()
            return seatkit_recognizer_get_touches(swipe, &point, 1) == 1 ? point.x : -1
        }

        /// One finger down at 500,500 at 10 ms, dragged right 40 layout units (4 mm) per
        /// motion, six motions 10 ms apart, then lifted; `afterEachMotion` is told the
        /// motion's number (1...6).
        func dragOneFinger(_ router: OpaquePointer, afterEachMotion: (Int) -> Void) {
            down(router, 10_000, 1, 500, 500)
            for k in 1...6 {
                move(router, Int64(10_000 + 10_000 * k), 1, 500 + Double(40 * k), 500)
                afterEachMotion(k)
            }
            up(router, 80_000, 1)
        }

        @Test func aOneFingerDragFailsTheSwipeFromCAtTheMotionPastItsTravelAndIsShownNoMore() {
            kiosk { router, swipe, app, log in
                var seen: [Double] = []
                dragOneFinger(router) { k in
                    if k == 1 { #expect(seatkit_recognizer_get_units_per_mm(swipe) == 10) }
                    if k == 2 { #expect(seatkit_recognizer_get_state(swipe) == SEATKIT_RECOGNIZER_POSSIBLE) }  // 8 mm
                    if k == 3 {  // 12 mm: past the 10 mm, failed at this very motion
                        #expect(seatkit_recognizer_get_state(swipe) == SEATKIT_RECOGNIZER_FAILED)
                        #expect(log.lines == ["swipe:failed"])
                    }
                    seen.append(seenX(swipe))
                }
                // No recognizer pass after the failure: its copy stays where it failed.
                #expect(seen == [540, 580, 620, 620, 620, 620])
                #expect(log.lines == ["swipe:failed"])
                #expect(app.moved == 6 && app.ended == 1 && app.cancelled == 0)
                #expect(seatkit_recognizer_get_state(swipe) == SEATKIT_RECOGNIZER_POSSIBLE, "reset at the touch's end")
            }
        }

        @Test(arguments: [0.0, -1.0])
        func aTravelLimitOfZeroOrLessIsOffAndTheSwipeFollowsTheDragUntilItLifts(travel: Double) {
            kiosk(travel: 10) { router, swipe, app, log in
                // Turned off after being on.
                #expect(seatkit_recognizer_set_maximum_travel_until_all_touches(swipe, travel))
                var seen: [Double] = []
                dragOneFinger(router) { _ in
                    #expect(seatkit_recognizer_get_state(swipe) == SEATKIT_RECOGNIZER_POSSIBLE)
                    seen.append(seenX(swipe))
                }
                #expect(seen == [540, 580, 620, 660, 700, 740])
                #expect(log.lines == ["swipe:failed"], "only when the finger lifted")
                #expect(app.moved == 6 && app.ended == 1 && app.cancelled == 0)
            }
        }

        /// Two fingers at 10 ms; a third 260 ms after the first, then the three move 20 mm
        /// left together.
        @Test(arguments: [Int64(250_000), 0, -5])
        func aThirdFingerLandingLateFailsTheSwipeFromCAtItsDownUnlessTheDelayIsOff(delay: Int64) {
            kiosk(delay: delay) { router, swipe, app, log in
                down(router, 10_000, 1, 800, 300)
                down(router, 10_000, 2, 800, 500)
                move(router, 250_000, 1, 801, 300)  // 240 ms: in time
                #expect(seatkit_recognizer_get_state(swipe) == SEATKIT_RECOGNIZER_POSSIBLE)
                down(router, 270_000, 3, 800, 700)  // 260 ms after the first
                move(router, 280_000, 1, 600, 300)
                move(router, 280_000, 2, 600, 500)
                move(router, 280_000, 3, 600, 700)
                if delay > 0 {
                    #expect(log.lines == ["swipe:failed"])
                    // The three fingers moving together stayed the app's.
                    #expect(app.cancelled == 0 && app.moved == 4)
                } else {
                    #expect(log.lines == ["swipe:recognized"])
                    #expect(seatkit_recognizer_get_swipe_direction(swipe) == SEATKIT_SWIPE_LEFT.rawValue)
                    #expect(app.cancelled == 3, "the switch took the app's touches")
                }
            }
        }

        @Test func threeFingersLandingWithinTheLimitsStillSwipe() {
            kiosk { router, swipe, _, log in
                // 0, 60 and 140 ms; the first two wander up to 4 mm while the others land.
                down(router, 10_000, 1, 800, 300)
                move(router, 40_000, 1, 790, 303)
                down(router, 70_000, 2, 805, 500)
                move(router, 110_000, 1, 760, 305)
                down(router, 150_000, 3, 795, 700)
                #expect(seatkit_recognizer_get_state(swipe) == SEATKIT_RECOGNIZER_POSSIBLE)
                move(router, 170_000, 1, 560, 305)
                move(router, 170_000, 2, 605, 500)
                move(router, 170_000, 3, 595, 700)
                #expect(log.lines == ["swipe:recognized"])
                #expect(seatkit_recognizer_get_swipe_direction(swipe) == SEATKIT_SWIPE_LEFT.rawValue)
            }
        }

        @Test func theLimitsOnAnotherKindAreRefusedWithALogLineAndChangeNothing() {
            let router = seatkit_router_create_virtual(0)!
            defer { seatkit_router_destroy(router) }
            let pan = seatkit_recognizer_create_pan(router, "pan", 1, 0)
            let tap = seatkit_recognizer_create_tap(router, "tap", 1, 3)
            let touchpad = seatkit_recognizer_create_touchpad_swipe(router, "touchpad-swipe", 3)
            let swipe = seatkit_recognizer_create_swipe(router, "swipe", SEATKIT_SWIPE_LEFT.rawValue, 3)
            let either = seatkit_recognizer_create_exclusive(router, "either", swipe, tap)
            for (r, name) in [(pan, "pan"), (touchpad, "touchpad-swipe"), (either, "either")] {
                forgetLoggedLines()
                #expect(!seatkit_recognizer_set_maximum_travel_until_all_touches(r, 10))
                #expect(loggedLines == ["seatkit_recognizer_set_maximum_travel_until_all_touches: \(name) has no travel limit until all touches (a swipe does); refused"])
                #expect(!seatkit_recognizer_set_maximum_delay_until_all_touches(r, 250_000))
                #expect(loggedLines.last == "seatkit_recognizer_set_maximum_delay_until_all_touches: \(name) has no delay limit until all touches (a swipe does); refused")
            }
            // A swipe refuses a travel that is not finite, and takes 0 and less (off) silently.
            forgetLoggedLines()
            #expect(!seatkit_recognizer_set_maximum_travel_until_all_touches(swipe, .nan))
            #expect(!seatkit_recognizer_set_maximum_travel_until_all_touches(swipe, .infinity))
            #expect(loggedLines.count == 2 && loggedLines.allSatisfy { $0.hasSuffix("is not finite; refused") })
            #expect(seatkit_recognizer_set_maximum_travel_until_all_touches(swipe, 0))
            #expect(seatkit_recognizer_set_maximum_delay_until_all_touches(swipe, -1))
            #expect(loggedLines.count == 2)
            // A dead handle: false (logged as every dead handle is).
            seatkit_recognizer_destroy(pan)
            #expect(!seatkit_recognizer_set_maximum_travel_until_all_touches(pan, 10))
            #expect(!seatkit_recognizer_set_maximum_delay_until_all_touches(pan, 250_000))
            #expect(!seatkit_recognizer_set_maximum_delay_until_all_touches(nil, 250_000))
        }

        @Test func thePanRefusedTheLimitsStillBeginsOnAOneFingerDrag() {
            let log = Log()
            let router = seatkit_router_create_virtual(0)!
            defer { seatkit_router_destroy(router); withExtendedLifetime(log) {} }
            let output = seatkit_output_create(router, "OUT", 0, 0, 1000, 1000, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)!
            let pan = seatkit_recognizer_create_pan(router, "pan", 1, 0)
            CCompositionTests().watch(pan, "pan", log)
            #expect(!seatkit_recognizer_set_maximum_travel_until_all_touches(pan, 1))
            #expect(seatkit_output_add_recognizer(output, pan))
            down(router, 10_000, 1, 100, 100)
            move(router, 20_000, 1, 300, 100)
            #expect(log.lines.first == "pan:began")
        }
    }
}
