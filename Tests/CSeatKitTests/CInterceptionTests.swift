import CSeatKitSupport
import Testing

/// Counts a child's touch calls through the C vtable and, when asked, requests at its
/// touches_began that its ancestors not intercept it; `data` points at an InterceptionChild.
final class InterceptionChild {
    var began = 0, moved = 0, ended = 0, cancelled = 0
    var disallows = false
    var surface: OpaquePointer?
}

nonisolated(unsafe) private var interceptionChildResponder: seatkit_responder_interface = {
    var impl = seatkit_responder_interface()
    impl.struct_size = MemoryLayout<seatkit_responder_interface>.size
    impl.touches_began = { data, _, _ in
        let c = Unmanaged<InterceptionChild>.fromOpaque(data!).takeUnretainedValue()
        c.began += 1
        if c.disallows { _ = seatkit_surface_request_disallow_interception(c.surface) }
        return SEATKIT_HANDLED
    }
    impl.touches_moved = { data, _, _ in Unmanaged<InterceptionChild>.fromOpaque(data!).takeUnretainedValue().moved += 1; return SEATKIT_HANDLED }
    impl.touches_ended = { data, _, _ in Unmanaged<InterceptionChild>.fromOpaque(data!).takeUnretainedValue().ended += 1; return SEATKIT_HANDLED }
    impl.touches_cancelled = { data, _, _ in Unmanaged<InterceptionChild>.fromOpaque(data!).takeUnretainedValue().cancelled += 1 }
    return impl
}()

extension TheProcessWideCLog {
    /// seatkit_surface_request_disallow_interception (issue 30, goal 4) from C: a scroller's
    /// pan takes a child's drag (one cancel), unless the child asked at its touches_began; the
    /// request ends with the touches.
    @Suite struct CInterceptionTests {
        init() {
            forgetLoggedLines()
            seatkit_log_init(SEATKIT_ERROR, captureLog)
        }

        private func drag(_ router: OpaquePointer, id: Int32, start: Int64) {
            seatkit_router_notify_touch_down(router, start, 1, id, 100, 100)
            seatkit_router_notify_touch_frame(router, start, 1)
            for k in 1...8 {
                let t = start + Int64(k) * 10_000
                seatkit_router_notify_touch_motion(router, t, 1, id, 100, 100 + Double(k) * 10)
                seatkit_router_notify_touch_frame(router, t, 1)
            }
            seatkit_router_notify_touch_up(router, start + 100_000, 1, id)
            seatkit_router_notify_touch_frame(router, start + 100_000, 1)
        }

        @Test func aChildThatDisallowsInterceptionFromCKeepsItsDragAndTheRequestEndsWithTheTouch() throws {
            let router = try #require(seatkit_router_create_virtual(0))
            defer { seatkit_router_destroy(router) }
            let output = try #require(seatkit_output_create(router, "OUT-1", 0, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1) as OpaquePointer?)
            let scroller = try #require(seatkit_surface_create(router, "scroller", 0, 0, 400, 600) as OpaquePointer?)
            let child = try #require(seatkit_surface_create(router, "child", 0, 0, 400, 200) as OpaquePointer?)
            #expect(seatkit_surface_add_child(seatkit_output_get_root(output), scroller))
            #expect(seatkit_surface_add_child(scroller, child))
            let c = InterceptionChild()
            c.surface = child
            withUnsafePointer(to: &interceptionChildResponder) {
                seatkit_surface_set_responder(child, $0, Unmanaged.passUnretained(c).toOpaque())
            }
            let pan = try #require(seatkit_recognizer_create_pan(router, "scroll", 1, 0) as OpaquePointer?)
            #expect(seatkit_surface_add_recognizer(scroller, pan))

            // Intercepted: the child is cancelled once, mid-way, and hears nothing more.
            drag(router, id: 0, start: 1_000_000)
            #expect(c.began == 1 && c.cancelled == 1 && c.ended == 0)
            #expect(c.moved >= 1 && c.moved < 8)

            // Disallowed: the whole stream is the child's; the pan fails.
            c.disallows = true
            c.began = 0; c.moved = 0; c.cancelled = 0
            seatkit_router_notify_touch_down(router, 3_000_000, 1, 1, 100, 100)
            seatkit_router_notify_touch_frame(router, 3_000_000, 1)
            #expect(seatkit_surface_is_interception_disallowed(child))
            for k in 1...8 {
                let t = 3_000_000 + Int64(k) * 10_000
                seatkit_router_notify_touch_motion(router, t, 1, 1, 100, 100 + Double(k) * 10)
                seatkit_router_notify_touch_frame(router, t, 1)
            }
            seatkit_router_notify_touch_up(router, 3_200_000, 1, 1)
            seatkit_router_notify_touch_frame(router, 3_200_000, 1)
            #expect(c.began == 1 && c.moved == 8 && c.ended == 1 && c.cancelled == 0)
            #expect(!seatkit_surface_is_interception_disallowed(child), "the request ended with the last touch")

            // A detached surface: refused, nothing changed.
            let loose = try #require(seatkit_surface_create(router, "loose", 0, 0, 10, 10) as OpaquePointer?)
            #expect(!seatkit_surface_request_disallow_interception(loose))
            #expect(!seatkit_surface_request_disallow_interception(nil))
        }
    }
}
