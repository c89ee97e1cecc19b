import CSeatKitSupport
import Testing

/// Mutter's relationships and Flutter's arena rules from C (issue 30, goal 3), through the
/// header's functions on a virtual clock.
@Suite struct CRelationshipTests {
    typealias Log = CCompositionTests.Log

    /// Runs `body` on a new virtual-clock router whose one output (1000 x 1000) is filled by
    /// the surface `page`, with a log for recognizers' states; destroys the router after.
    func onAPage(_ body: (_ router: OpaquePointer, _ page: OpaquePointer, _ log: Log) -> Void) {
        let log = Log()
        let router = seatkit_router_create_virtual(0)!
        defer { seatkit_router_destroy(router); withExtendedLifetime(log) {} }
        let output = seatkit_output_create(router, "OUT", 0, 0, 1000, 1000, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)!
        let page = seatkit_surface_create(router, "page", 0, 0, 1000, 1000)!
        _ = seatkit_surface_add_child(seatkit_output_get_root(output), page)
        body(router, page, log)
    }

    /// A one-finger pan named `name` on `router`, its states written to `log` when one is given.
    func pan(_ router: OpaquePointer, _ name: String, watchedIn log: Log? = nil) -> OpaquePointer? {
        let pan = seatkit_recognizer_create_pan(router, name, 1, 0)
        if let log { CCompositionTests().watch(pan, name, log) }
        return pan
    }

    func drag(_ router: OpaquePointer) {
        seatkit_router_notify_touch_down(router, 10_000, 1, 0, 100, 100)
        seatkit_router_notify_touch_frame(router, 10_000, 1)
        seatkit_router_notify_touch_motion(router, 20_000, 1, 0, 200, 100)
        seatkit_router_notify_touch_frame(router, 20_000, 1)
        seatkit_router_notify_touch_motion(router, 30_000, 1, 0, 300, 100)
        seatkit_router_notify_touch_frame(router, 30_000, 1)
    }

    @Test(arguments: [false, true])
    func twoPansFromCThatCannotCancelEachOtherBothBegin(related: Bool) { onAPage { router, page, log in
        let a = pan(router, "a", watchedIn: log), b = pan(router, "b", watchedIn: log)
        if related {
            #expect(seatkit_recognizer_can_not_cancel(a, b))
            #expect(seatkit_recognizer_can_not_cancel(b, a))
        }
        #expect(seatkit_surface_add_recognizer(page, a) && seatkit_surface_add_recognizer(page, b))
        drag(router)
        if related {
            #expect(log.lines.filter { $0.hasPrefix("b:") }.first == "b:began")
        } else {
            #expect(log.lines.filter { $0.hasPrefix("b:") } == ["b:failed"])
        }
        #expect(seatkit_recognizer_remove_relationships(a, b))
    } }

    @Test func aPanFromCThatRecognizesIndependentlyDoesNotWaitForTheOneItRequiresToFail() { onAPage { router, page, log in
        let a = pan(router, "a", watchedIn: log), b = pan(router, "b")
        #expect(seatkit_recognizer_require_to_fail(a, b))
        #expect(seatkit_recognizer_recognize_independently_from(a, b))
        #expect(seatkit_surface_add_recognizer(page, a) && seatkit_surface_add_recognizer(page, b))
        drag(router)
        #expect(log.lines.first == "a:began")
    } }

    @Test func anInhibitionFromCThatWouldCloseACycleIsRefused() { onAPage { router, _, _ in
        let a = pan(router, "a"), b = pan(router, "b")
        #expect(seatkit_recognizer_require_to_fail(a, b))           // a waits for b
        #expect(!seatkit_recognizer_inhibit_until_cancelled(a, b))  // b would wait for a
        #expect(seatkit_recognizer_inhibit_until_cancelled(b, a))   // a waits for b again
        #expect(!seatkit_recognizer_inhibit_until_cancelled(nil, a))
    } }

    @Test func aTapFromCIsRecognizedAtTheSweepWithoutWaitingForTheDoubleTap() { onAPage { router, page, log in
        let single = seatkit_recognizer_create_tap(router, "single", 1, 1)
        let double = seatkit_recognizer_create_tap(router, "double", 2, 1)
        CCompositionTests().watch(single, "single", log)
        CCompositionTests().watch(double, "double", log)
        #expect(seatkit_recognizer_require_to_fail(single, double))
        #expect(seatkit_surface_add_recognizer(page, single) && seatkit_surface_add_recognizer(page, double))
        seatkit_router_set_gesture_arena_rules(router, SEATKIT_GESTURE_ARENA_SWEEP_AT_END.rawValue)
        #expect(seatkit_router_get_gesture_arena_rules(router) == SEATKIT_GESTURE_ARENA_SWEEP_AT_END.rawValue)
        CCompositionTests().tap(router, at: 10_000, id: 0)
        #expect(log.lines == ["single:recognized", "double:failed"])
    } }

    /// Recognizes when it wins the arena.
    nonisolated(unsafe) static var winner: seatkit_recognizer_interface = {
        var impl = seatkit_recognizer_interface()
        impl.struct_size = MemoryLayout<seatkit_recognizer_interface>.size
        impl.touches_began = { _, _, _ in }
        impl.arena_won = { data, r in
            Unmanaged<Log>.fromOpaque(data!).takeUnretainedValue().lines.append("custom won")
            _ = seatkit_recognizer_set_state(r, SEATKIT_RECOGNIZER_RECOGNIZED)
        }
        return impl
    }()

    /// The same table as compiled against the header before arena_won: it never hears a win.
    nonisolated(unsafe) static var olderWinner: seatkit_recognizer_interface = {
        var impl = winner
        impl.struct_size = MemoryLayout<seatkit_recognizer_interface>.offset(of: \.arena_won)!
        return impl
    }()

    @Test(arguments: [false, true])
    func aCustomRecognizerFromCHearsItWonWhenTheLastOtherMemberFails(olderTable: Bool) { onAPage { router, page, log in
        let data = Unmanaged.passUnretained(log).toOpaque()
        let custom = olderTable ? seatkit_recognizer_create_custom(router, "custom", &Self.olderWinner, data)
            : seatkit_recognizer_create_custom(router, "custom", &Self.winner, data)
        let tap = seatkit_recognizer_create_tap(router, "tap", 1, 1)
        CCompositionTests().watch(custom, "custom", log)
        CCompositionTests().watch(tap, "tap", log)
        #expect(seatkit_surface_add_recognizer(page, tap) && seatkit_surface_add_recognizer(page, custom))
        seatkit_router_set_gesture_arena_rules(router, SEATKIT_GESTURE_ARENA_LAST_REMAINING_WINS.rawValue)
        drag(router)   // the tap fails: moved too far
        if olderTable {
            #expect(log.lines == ["tap:failed"])
        } else {
            // The winner acts while the loser's failure is under way (before its targets hear it).
            #expect(log.lines == ["custom won", "custom:recognized", "tap:failed"])
        }
    } }
}
