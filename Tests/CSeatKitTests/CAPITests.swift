import AllocationCounter
import CSeatKitReplay
import CSeatKitReplaySupport
import CSeatKitSupport
import Foundation
import Synchronization
import Testing

/// Counts responder calls through the C vtable; `data` points at a Counter.
final class Counter {
    var began = 0, moved = 0, ended = 0, cancelled = 0, keys = 0
    var destroyOnBegan: OpaquePointer?
}

private func counter(_ data: UnsafeMutableRawPointer?) -> Counter {
    Unmanaged<Counter>.fromOpaque(data!).takeUnretainedValue()
}

nonisolated(unsafe) private var countingResponder: seatkit_responder_interface = {
    var impl = seatkit_responder_interface()
    impl.struct_size = MemoryLayout<seatkit_responder_interface>.size
    impl.touches_began = { data, _, _ in
        let c = counter(data)
        c.began += 1
        if let doomed = c.destroyOnBegan { seatkit_surface_destroy(doomed) }
        return SEATKIT_HANDLED
    }
    impl.touches_moved = { data, _, _ in counter(data).moved += 1; return SEATKIT_HANDLED }
    impl.touches_ended = { data, _, _ in counter(data).ended += 1; return SEATKIT_HANDLED }
    impl.touches_cancelled = { data, _, _ in counter(data).cancelled += 1 }
    impl.key_down = { data, _, _ in counter(data).keys += 1; return SEATKIT_HANDLED }
    impl.key_up = { data, _, _ in counter(data).keys += 1; return SEATKIT_HANDLED }
    impl.can_become_first_responder = { _ in true }
    return impl
}()

extension TheProcessWideCLog {
    @Suite struct CAPITests {
        init() {
            forgetLoggedLines()
            seatkit_log_init(SEATKIT_ERROR, captureLog)
        }

        /// A router with one 800x600 output and a surface filling it whose responder counts.
        private func makeTree(_ c: Counter) -> (router: OpaquePointer, output: OpaquePointer, surface: OpaquePointer) {
            let router = seatkit_router_create_virtual(0)!
            let output = seatkit_output_create(router, "OUT-1", 0, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)!
            let surface = seatkit_surface_create(router, "app", 0, 0, 800, 600)!
            withUnsafePointer(to: &countingResponder) {
                seatkit_surface_set_responder(surface, $0, Unmanaged.passUnretained(c).toOpaque())
            }
            #expect(seatkit_surface_add_child(seatkit_output_get_root(output), surface))
            return (router, output, surface)
        }

        @Test func aDestroyedHandleIsRefusedAndLoggedEvenWhenItsSlotIsReused() {
            let c = Counter()
            let (router, _, surface) = makeTree(c)
            seatkit_surface_destroy(surface)
            // The slot is reused by the next surface; the old handle still names nothing.
            let next = seatkit_surface_create(router, "next", 0, 0, 10, 10)
            #expect(next != surface)
            #expect(seatkit_surface_get_id(surface) == 0)
            #expect(seatkit_surface_get_id(next) != 0)
            #expect(loggedLines.last?.hasPrefix("seatkit_surface_get_id: refused surface handle") == true)
            seatkit_surface_set_frame(nil, 0, 0, 1, 1)
            #expect(loggedLines.last == "seatkit_surface_set_frame: refused NULL surface")
            // A handle of one kind passed as another is refused too.
            seatkit_surface_set_hidden(router, true)
            #expect(loggedLines.last == "seatkit_surface_set_hidden: refused a router handle where a surface is expected")
            // And a made-up pointer.
            seatkit_router_notify_touch_frame(OpaquePointer(bitPattern: 0xdead_beef), 0, 0)
            #expect(loggedLines.last?.contains("not live") == true)
            seatkit_router_destroy(router)
        }

        @Test func outOfRangeValuesAreRefusedWithALogLineNotATrap() {
            let c = Counter()
            let (router, output, surface) = makeTree(c)
            let before = loggedLines.count
            seatkit_output_set_scale(output, 0)
            seatkit_output_set_scale(output, .nan)
            seatkit_output_set_mode(output, -1, 5)
            seatkit_output_set_transform(output, seatkit_output_transform(rawValue: 42))
            seatkit_surface_set_frame(surface, .infinity, 0, 1, 1)
            #expect(!seatkit_surface_add_child(surface, surface))
            #expect(!seatkit_surface_add_child(surface, seatkit_output_get_root(output)))
            #expect(seatkit_recognizer_create_tap(router, nil, 0, 1) == nil)
            let unknownLayout = seatkit_keymap_create_from_names(nil, nil, "no-such-layout", nil, nil)
            let garbage = seatkit_keymap_create_from_string("garbage")
            #expect(unknownLayout == nil)
            #expect(garbage == nil)
            seatkit_router_notify_key(router, 0, 1, 30, seatkit_key_state(rawValue: 9))
            seatkit_router_notify_touch_down(router, 0, 1, 0, .nan, 0)
            seatkit_router_notify_pointer_axis(router, 0, 1, nil)
            #expect(loggedLines.count - before == 13, "\(loggedLines[before...])")
            #expect(c.began == 0 && c.keys == 0)
            // The output kept its geometry.
            var x = 0.0, y = 0.0, w = 0.0, h = 0.0
            #expect(seatkit_output_get_layout_box(output, &x, &y, &w, &h))
            #expect(w == 800 && h == 600)
            seatkit_router_destroy(router)
        }

        @Test func aResponderMayDestroyItsOwnSurfaceFromInsideACallback() {
            let c = Counter()
            let (router, output, surface) = makeTree(c)
            c.destroyOnBegan = surface
            var destroyed = false
            let listener = DestroyListener { destroyed = true }
            listener.add(to: seatkit_surface_get_destroy_signal(surface))
            withExtendedLifetime(listener) {
                seatkit_router_notify_touch_down(router, 1000, 1, 0, 10, 10)
                seatkit_router_notify_touch_frame(router, 1000, 1)
            }
            #expect(c.began == 1)
            #expect(destroyed)
            // Later events of the touch reach nobody; the router is still fine.
            seatkit_router_notify_touch_up(router, 2000, 1, 0)
            seatkit_router_notify_touch_frame(router, 2000, 1)
            #expect(c.ended == 0)
            #expect(seatkit_router_surface_at(router, 10, 10) == seatkit_output_get_root(output))
            seatkit_router_destroy(router)
        }

        @Test func destroyingAnOutputCancelsItsTouchesAndLeavesItsSurfacesValidButDetached() {
            let c = Counter()
            let (router, output, surface) = makeTree(c)
            seatkit_router_notify_touch_down(router, 1000, 1, 0, 10, 10)
            seatkit_router_notify_touch_frame(router, 1000, 1)
            let root = seatkit_output_get_root(output)
            seatkit_output_destroy(output)
            #expect(c.began == 1 && c.cancelled == 1)
            #expect(seatkit_surface_get_id(surface) != 0 && !seatkit_surface_is_attached(surface))
            #expect(seatkit_surface_get_id(root) == 0, "the root goes with its output")
            #expect(seatkit_router_surface_at(router, 10, 10) == nil)
            seatkit_router_notify_touch_up(router, 2000, 1, 0)
            seatkit_router_notify_touch_frame(router, 2000, 1)
            #expect(c.ended == 0)
            seatkit_router_destroy(router)
        }

        @Test func aSurfaceMovedUnderAStillTouchIsToldThroughTheCAPI() {
            let c = Counter()
            let (router, _, surface) = makeTree(c)
            seatkit_router_notify_touch_down(router, 1000, 1, 0, 10, 10)
            seatkit_router_notify_touch_frame(router, 1000, 1)
            seatkit_router_refresh_touch_locations(router)
            #expect(c.moved == 0, "nothing moved")
            seatkit_surface_set_frame(surface, 5, 0, 800, 600)
            seatkit_router_refresh_touch_locations(router)
            #expect(c.began == 1 && c.moved == 1)
            seatkit_router_destroy(router)
        }

        @Test func destroyingTheRouterEmitsEveryDestroySignalAndEndsEveryHandle() {
            let c = Counter()
            let (router, output, surface) = makeTree(c)
            let recognizer = seatkit_recognizer_create_pan(router, "pan", 1, 0)
            #expect(seatkit_surface_add_recognizer(surface, recognizer))
            var order: [String] = []
            let listeners = [
                DestroyListener { order.append("recognizer") },
                DestroyListener { order.append("surface") },
                DestroyListener { order.append("output") },
                DestroyListener { order.append("router") },
            ]
            listeners[0].add(to: seatkit_recognizer_get_destroy_signal(recognizer))
            listeners[1].add(to: seatkit_surface_get_destroy_signal(surface))
            listeners[2].add(to: seatkit_output_get_destroy_signal(output))
            listeners[3].add(to: seatkit_router_get_destroy_signal(router))
            withExtendedLifetime(listeners) { seatkit_router_destroy(router) }
            #expect(order == ["recognizer", "surface", "output", "router"])
            #expect(seatkit_surface_get_id(surface) == 0)
            #expect(seatkit_recognizer_get_state(recognizer) == SEATKIT_RECOGNIZER_POSSIBLE)
            #expect(seatkit_router_get_time(router) == 0)
        }

        @Test func theEventLoopClockFiresALongPressFromAWaylandEventLoopTimer() throws {
            let loop = try #require(wl_event_loop_create())
            defer { wl_event_loop_destroy(loop) }
            let router = try #require(seatkit_router_create(loop))
            let output = seatkit_output_create(router, "OUT-1", 0, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)
            let press = seatkit_recognizer_create_long_press(router, "press", 30_000, 1)
            #expect(seatkit_output_add_recognizer(output, press))
            let seen = StateLog()
            seatkit_recognizer_set_callback(press, { data, _, state in
                Unmanaged<StateLog>.fromOpaque(data!).takeUnretainedValue().states.append(state.rawValue)
            }, Unmanaged.passUnretained(seen).toOpaque())
            let now = seatkit_router_get_time(router)
            #expect(abs(now - Int64(ProcessInfo.processInfo.systemUptime * 1_000_000)) < 1_000_000,
                    "the clock reads CLOCK_MONOTONIC")
            seatkit_router_notify_touch_down(router, now, 1, 0, 100, 100)
            seatkit_router_notify_touch_frame(router, now, 1)
            #expect(seen.states.isEmpty)
            // Wait (bounded) for the loop's timer to fire the recognizer.
            let deadline = Date().addingTimeInterval(5)
            while seen.states.isEmpty && Date() < deadline { wl_event_loop_dispatch(loop, 100) }
            #expect(seen.states == [SEATKIT_RECOGNIZER_BEGAN.rawValue])
            #expect(seatkit_router_get_time(router) - now >= 30_000)
            seatkit_router_destroy(router)
            // The timer source is gone with the router: dispatching touches nothing freed.
            wl_event_loop_dispatch(loop, 0)
            seatkit_router_advance_clock(router, 0)
        }

        @Test func aRecordingReplayedThroughLibinputReachesTheCResponderAtItsRecordedPace() throws {
            let c = Counter()
            let (router, _, _) = makeTree(c)
            let path = CProgramTests.packageRoot.appendingPathComponent("examples/kiosk-touch.yml").path
            // The worker is the seatkit tool beside the test binary.
            let worker = try #require(CProgramTests.buildDirectory()).appending("/seatkit")
            let replay = try #require(seatkit_replay_create(router, path, worker))
            seatkit_replay_add_devices(replay)
            #expect(seatkit_router_get_capabilities(router) & SEATKIT_DEVICE_TOUCH.rawValue != 0)
            let count = seatkit_replay_get_event_count(replay)
            #expect(count > 10)
            let done = StateLog()
            seatkit_replay_play(replay, { data, _ in
                Unmanaged<StateLog>.fromOpaque(data!).takeUnretainedValue().states.append(1)
            }, Unmanaged.passUnretained(done).toOpaque())
            #expect(done.states.isEmpty && c.ended == 0, "only the first event plays at once; the rest waits for its time")
            // Ten seconds of virtual time, a hundred milliseconds at a time.
            var t = seatkit_router_get_time(router)
            while done.states.isEmpty && t < 10_000_000 {
                t += 100_000
                seatkit_router_advance_clock(router, t)
            }
            #expect(done.states == [1])
            #expect(c.began >= 1 && c.ended == c.began && c.cancelled == 0)
            // A second play is refused; a bad path is an error with the file named.
            seatkit_replay_play(replay, nil, nil)
            #expect(loggedLines.last?.contains("already playing") == true)
            let missing = seatkit_replay_create(router, "/nonexistent.yml", worker)
            #expect(missing == nil)
            #expect(loggedLines.last?.contains("/nonexistent.yml") == true)
            seatkit_router_destroy(router)
            #expect(seatkit_replay_get_event_count(replay) == 0, "destroyed with its router")
        }

        @Test func routingATouchThroughTheCAPIAllocatesNothingOnceWarm() {
            let c = Counter()
            let (router, _, _) = makeTree(c)
            var t: Int64 = 0
            func cycle() {
                t += 1000
                seatkit_router_notify_touch_down(router, t, 1, 0, 100, 100)
                seatkit_router_notify_touch_frame(router, t, 1)
                for i in 0..<5 {
                    seatkit_router_notify_touch_motion(router, t, 1, 0, 100 + Double(i), 100)
                    seatkit_router_notify_touch_frame(router, t, 1)
                }
                seatkit_router_notify_touch_up(router, t, 1, 0)
                seatkit_router_notify_touch_frame(router, t, 1)
                seatkit_router_notify_pointer_motion_absolute(router, t, 2, 50, 50)
            }
            for _ in 0..<10 { cycle() }
            let before = seatkit_thread_allocations()
            for _ in 0..<100 { cycle() }
            let allocations = seatkit_thread_allocations() - before
            #expect(allocations == 0)
            #expect(c.began == 110 && c.moved == 550 && c.ended == 110)
            seatkit_router_destroy(router)
        }

        @Test func keysThroughTheCAPIAllocateNothingOnceWarm() throws {
            let c = Counter()
            let (router, _, surface) = makeTree(c)
            // The call outside the macro: a string literal's C pointer lives only for the call
            // it is written in, and #require evaluates arguments apart from the call (ASan).
            let made = seatkit_keymap_create_from_names(nil, nil, "us", nil, nil)
            let keymap = try #require(made)
            seatkit_router_set_keymap(router, keymap, 0, 0)
            #expect(seatkit_router_set_first_responder(router, surface))
            let keys: [UInt32] = [30, 48, 46]
            func type() {
                var i = 0
                while i < keys.count {
                    seatkit_router_notify_key(router, 0, 1, keys[i], SEATKIT_KEY_PRESSED)
                    seatkit_router_notify_key(router, 0, 1, keys[i], SEATKIT_KEY_RELEASED)
                    i += 1
                }
            }
            for _ in 0..<10 { type() }
            let before = seatkit_thread_allocations()
            for _ in 0..<100 { type() }
            let allocations = seatkit_thread_allocations() - before
            #expect(allocations == 0)
            #expect(c.keys == 660)
            seatkit_keymap_destroy(keymap)
            seatkit_router_destroy(router)
        }
    }
}

final class StateLog {
    var states: [UInt32] = []
}

/// A wl_listener that runs a Swift closure; it removes itself when notified.
final class DestroyListener {
    private let storage: UnsafeMutablePointer<Holder>
    private struct Holder {
        var listener = wl_listener()
        var body: (() -> Void)?
    }

    init(_ body: @escaping () -> Void) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: Holder(body: body))
        storage.pointee.listener.notify = { listener, _ in
            // The listener is the Holder's first member.
            let holder = UnsafeMutableRawPointer(listener!).assumingMemoryBound(to: Holder.self)
            wl_list_remove(&holder.pointee.listener.link)
            holder.pointee.listener.link = wl_list()
            holder.pointee.body?()
        }
    }

    func add(to signal: UnsafeMutablePointer<wl_signal>?) {
        guard let signal else { return }
        wl_signal_add(signal, &storage.pointee.listener)
    }

    deinit {
        if storage.pointee.listener.link.next != nil { wl_list_remove(&storage.pointee.listener.link) }
        storage.deinitialize(count: 1)
        storage.deallocate()
    }
}
