import CSeatKitSupport
import Foundation
import Testing

/// seatkit-delivery.h: what a front end that delivers to clients itself (the wlroots
/// bridge) gets from the library: the end of each touch frame, and the core's pointer
/// emulation from touch.
extension TheProcessWideCLog {
    @Suite struct DeliveryAPITests {
        init() {
            forgetLoggedLines()
            seatkit_log_init(SEATKIT_ERROR, captureLog)
        }

        /// Counts the emissions of a signal; stays attached until deinit.
        final class SignalCounter {
            private let storage: UnsafeMutablePointer<Holder>
            private struct Holder {
                var listener = wl_listener()
                var count = 0
            }
            var count: Int { storage.pointee.count }

            init(_ signal: UnsafeMutablePointer<wl_signal>) {
                storage = .allocate(capacity: 1)
                storage.initialize(to: Holder())
                storage.pointee.listener.notify = { listener, _ in
                    UnsafeMutableRawPointer(listener!).assumingMemoryBound(to: Holder.self).pointee.count += 1
                }
                wl_signal_add(signal, &storage.pointee.listener)
            }

            func remove() { wl_list_remove(&storage.pointee.listener.link) }

            deinit {
                storage.deinitialize(count: 1)
                storage.deallocate()
            }
        }

        @Test func theTouchFrameSignalFiresOncePerDeviceFrameWhateverItDelivered() throws {
            let router = try #require(seatkit_router_create_virtual(0))
            let output = try #require(seatkit_output_create(router, "OUT-1", 0, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1) as OpaquePointer?)
            let surface = try #require(seatkit_surface_create(router, "app", 0, 0, 800, 600) as OpaquePointer?)
            #expect(seatkit_surface_add_child(seatkit_output_get_root(output), surface))
            let frames = SignalCounter(try #require(seatkit_router_get_touch_frame_signal(router)))
            #expect(seatkit_router_get_touch_frame_signal(router) == seatkit_router_get_touch_frame_signal(router), "one signal per router")

            seatkit_router_notify_touch_down(router, 1000, 1, 0, 10, 10)
            #expect(frames.count == 0, "not before the device's frame")
            seatkit_router_notify_touch_frame(router, 1000, 1)
            #expect(frames.count == 1)
            // A frame that mixes phases (one finger moves, another goes down) is one frame.
            seatkit_router_notify_touch_motion(router, 2000, 1, 0, 20, 10)
            seatkit_router_notify_touch_down(router, 2000, 1, 1, 100, 100)
            seatkit_router_notify_touch_frame(router, 2000, 1)
            #expect(frames.count == 2)
            seatkit_router_notify_touch_up(router, 3000, 1, 0)
            seatkit_router_notify_touch_up(router, 3000, 1, 1)
            seatkit_router_notify_touch_frame(router, 3000, 1)
            #expect(frames.count == 3)
            frames.remove()
            seatkit_router_destroy(router)
            #expect(seatkit_router_get_touch_frame_signal(router) == nil, "refused once the router is gone")
            #expect(loggedLines.contains { $0.contains("seatkit_router_get_touch_frame_signal") })
        }

        /// Two listeners: `first`, which on its call removes itself and adds `second`; each counted.
        struct HandOver {
            var first = wl_listener()
            var second = wl_listener()
            var signal: UnsafeMutablePointer<wl_signal>?
            var firstCalls = 0
            var secondCalls = 0
        }

        /// The touch-frame signal with one listener calls it directly (without
        /// wl_signal_emit_mutable's cursor): still, the listener may remove itself while it
        /// runs, and a listener it adds is called from the next frame on, not this one; with
        /// two listeners each is called once a frame.
        @Test func theTouchFrameSignalsLoneListenerMayRemoveItselfAndWhatItAddsWaitsForTheNextFrame() throws {
            let router = try #require(seatkit_router_create_virtual(0))
            let output = try #require(seatkit_output_create(router, "OUT-1", 0, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1) as OpaquePointer?)
            let surface = try #require(seatkit_surface_create(router, "app", 0, 0, 800, 600) as OpaquePointer?)
            #expect(seatkit_surface_add_child(seatkit_output_get_root(output), surface))
            let signal = try #require(seatkit_router_get_touch_frame_signal(router))
            let handOver = UnsafeMutablePointer<HandOver>.allocate(capacity: 1)
            defer { handOver.deinitialize(count: 1); handOver.deallocate() }
            handOver.initialize(to: HandOver())
            handOver.pointee.signal = signal
            handOver.pointee.first.notify = { listener, _ in
                let h = UnsafeMutableRawPointer(listener!).advanced(by: -MemoryLayout<HandOver>.offset(of: \.first)!)
                    .assumingMemoryBound(to: HandOver.self)
                h.pointee.firstCalls += 1
                wl_list_remove(&h.pointee.first.link)
                wl_signal_add(h.pointee.signal, &h.pointee.second)
            }
            handOver.pointee.second.notify = { listener, _ in
                let h = UnsafeMutableRawPointer(listener!).advanced(by: -MemoryLayout<HandOver>.offset(of: \.second)!)
                    .assumingMemoryBound(to: HandOver.self)
                h.pointee.secondCalls += 1
            }
            wl_signal_add(signal, &handOver.pointee.first)

            seatkit_router_notify_touch_down(router, 1000, 1, 0, 10, 10)
            seatkit_router_notify_touch_frame(router, 1000, 1)
            #expect(handOver.pointee.firstCalls == 1)
            #expect(handOver.pointee.secondCalls == 0, "added during the frame: not called in it")
            seatkit_router_notify_touch_motion(router, 2000, 1, 0, 20, 10)
            seatkit_router_notify_touch_frame(router, 2000, 1)
            #expect(handOver.pointee.firstCalls == 1, "removed itself")
            #expect(handOver.pointee.secondCalls == 1)

            // Two listeners: each once a frame.
            let frames = SignalCounter(signal)
            seatkit_router_notify_touch_up(router, 3000, 1, 0)
            seatkit_router_notify_touch_frame(router, 3000, 1)
            #expect(handOver.pointee.secondCalls == 2)
            #expect(frames.count == 1)
            frames.remove()
            wl_list_remove(&handOver.pointee.second.link)
            seatkit_router_destroy(router)
        }

        /// A touch-frame callback's calls, and what it does on its next call.
        struct FrameCalls {
            var count = 0
            var router: OpaquePointer?
            var clearOnCall = false
            var cleared = false
        }

        static let countFrame: seatkit_touch_frame_func_t = { data in
            let calls = data!.assumingMemoryBound(to: FrameCalls.self)
            calls.pointee.count += 1
            if calls.pointee.clearOnCall {
                calls.pointee.cleared = seatkit_router_set_touch_frame_callback(calls.pointee.router, nil, nil)
            }
        }
        static let otherFrame: seatkit_touch_frame_func_t = { _ in }

        /// The touch-frame callback is called at the same moments as the signal (once a device
        /// frame, with its data), beside the signal's listeners; one a router: a second
        /// is refused until the first is cleared with NULL, which it may do from its own call.
        @Test func theTouchFrameCallbackIsCalledOncePerFrameAndIsOneARouter() throws {
            let router = try #require(seatkit_router_create_virtual(0))
            let output = try #require(seatkit_output_create(router, "OUT-1", 0, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1) as OpaquePointer?)
            let surface = try #require(seatkit_surface_create(router, "app", 0, 0, 800, 600) as OpaquePointer?)
            #expect(seatkit_surface_add_child(seatkit_output_get_root(output), surface))
            let calls = UnsafeMutablePointer<FrameCalls>.allocate(capacity: 1)
            defer { calls.deinitialize(count: 1); calls.deallocate() }
            calls.initialize(to: FrameCalls(router: router))
            #expect(seatkit_router_get_touch_frame_callback(router, nil) == nil, "none at first")

            let frames = SignalCounter(try #require(seatkit_router_get_touch_frame_signal(router)))
            #expect(seatkit_router_set_touch_frame_callback(router, Self.countFrame, calls))
            var data: UnsafeMutableRawPointer?
            #expect(seatkit_router_get_touch_frame_callback(router, &data) != nil)
            #expect(data == UnsafeMutableRawPointer(calls))
            #expect(!seatkit_router_set_touch_frame_callback(router, Self.otherFrame, nil), "one a router")
            #expect(loggedLines.contains { $0.contains("seatkit_router_set_touch_frame_callback") })

            seatkit_router_notify_touch_down(router, 1000, 1, 0, 10, 10)
            #expect(calls.pointee.count == 0, "not before the device's frame")
            seatkit_router_notify_touch_frame(router, 1000, 1)
            #expect(calls.pointee.count == 1)
            #expect(frames.count == 1, "the signal's listeners are told too")
            seatkit_router_notify_touch_motion(router, 2000, 1, 0, 20, 10)
            seatkit_router_notify_touch_frame(router, 2000, 1)
            #expect(calls.pointee.count == 2)

            // Cleared from its own call: that call was the last.
            calls.pointee.clearOnCall = true
            seatkit_router_notify_touch_up(router, 3000, 1, 0)
            seatkit_router_notify_touch_frame(router, 3000, 1)
            #expect(calls.pointee.count == 3)
            #expect(calls.pointee.cleared)
            #expect(seatkit_router_get_touch_frame_callback(router, nil) == nil)
            seatkit_router_notify_touch_down(router, 4000, 1, 0, 10, 10)
            seatkit_router_notify_touch_frame(router, 4000, 1)
            #expect(calls.pointee.count == 3, "cleared")
            #expect(frames.count == 4)

            // Set again after the clear: allowed, and called.
            calls.pointee.clearOnCall = false
            #expect(seatkit_router_set_touch_frame_callback(router, Self.countFrame, calls))
            seatkit_router_notify_touch_up(router, 5000, 1, 0)
            seatkit_router_notify_touch_frame(router, 5000, 1)
            #expect(calls.pointee.count == 4)
            frames.remove()
            seatkit_router_destroy(router)
            #expect(!seatkit_router_set_touch_frame_callback(router, Self.countFrame, calls), "refused once the router is gone")
            #expect(seatkit_router_get_touch_frame_callback(router, nil) == nil)
        }

        /// The actions the emulation asked for, as "enter 10 20", "press", ...
        final class Actions {
            var list: [String] = []
        }

        static let record: seatkit_pointer_emulation_func_t = { data, action, sx, sy in
            let actions = Unmanaged<Actions>.fromOpaque(data!).takeUnretainedValue()
            switch action {
            case SEATKIT_POINTER_EMULATION_ENTER: actions.list.append("enter \(Int(sx)) \(Int(sy))")
            case SEATKIT_POINTER_EMULATION_MOTION: actions.list.append("motion \(Int(sx)) \(Int(sy))")
            case SEATKIT_POINTER_EMULATION_PRESS: actions.list.append("press")
            case SEATKIT_POINTER_EMULATION_RELEASE: actions.list.append("release")
            case SEATKIT_POINTER_EMULATION_LEAVE: actions.list.append("leave")
            default: actions.list.append("unknown")
            }
        }

        @Test func pointerEmulationFromCIsTheCoresStateMachineOnTheCallersState() {
            let actions = Actions()
            let data = Unmanaged.passUnretained(actions).toOpaque()
            var emulation = seatkit_pointer_emulation()
            seatkit_pointer_emulation_init(&emulation)
            #expect(!seatkit_pointer_emulation_is_active(&emulation, nil))

            // The pointer is elsewhere: enter at the finger, press; other fingers are ignored.
            seatkit_pointer_emulation_touch_down(&emulation, 3, 10, 20, false, Self.record, data)
            seatkit_pointer_emulation_touch_down(&emulation, 4, 50, 50, false, Self.record, data)
            seatkit_pointer_emulation_touch_motion(&emulation, 4, 55, 55, Self.record, data)
            var primary: Int32 = -1
            #expect(seatkit_pointer_emulation_is_active(&emulation, &primary) && primary == 3)
            seatkit_pointer_emulation_touch_motion(&emulation, 3, 15, 25, Self.record, data)
            seatkit_pointer_emulation_touch_up(&emulation, 4, Self.record, data)
            seatkit_pointer_emulation_touch_up(&emulation, 3, Self.record, data)
            #expect(actions.list == ["enter 10 20", "press", "motion 15 25", "release", "leave"])
            #expect(!seatkit_pointer_emulation_is_active(&emulation, nil))

            // The pointer is already here: no enter, and no leave after a cancel.
            actions.list = []
            seatkit_pointer_emulation_touch_down(&emulation, 5, 1, 2, true, Self.record, data)
            seatkit_pointer_emulation_touch_cancel(&emulation, Self.record, data)
            seatkit_pointer_emulation_touch_cancel(&emulation, Self.record, data)
            #expect(actions.list == ["motion 1 2", "press", "release"])
        }

        @Test func pointerEmulationRefusesBadArgumentsWithALogLine() {
            let actions = Actions()
            let data = Unmanaged.passUnretained(actions).toOpaque()
            var emulation = seatkit_pointer_emulation()
            seatkit_pointer_emulation_init(&emulation)
            seatkit_pointer_emulation_touch_down(&emulation, 1, .nan, 0, false, Self.record, data)
            seatkit_pointer_emulation_touch_down(nil, 1, 0, 0, false, Self.record, data)
            seatkit_pointer_emulation_touch_down(&emulation, 1, 0, 0, false, nil, data)
            #expect(actions.list.isEmpty)
            #expect(!seatkit_pointer_emulation_is_active(&emulation, nil))
            #expect(!seatkit_pointer_emulation_is_active(nil, nil))
            let lines = loggedLines
            #expect(lines.contains { $0.contains("seatkit_pointer_emulation_touch_down") && $0.contains("non-finite") }, "\(lines)")
            #expect(lines.contains { $0.contains("NULL emulation") } && lines.contains { $0.contains("NULL perform callback") }, "\(lines)")
        }
    }
}
