import CSeatKitSupport
import Foundation
import Testing

/// The kiosk policies through the C API: the same core components the Swift kiosk uses.
@Suite(.serialized) struct CKioskPolicyTests {
    nonisolated(unsafe) static var responder: seatkit_responder_interface = {
        var impl = seatkit_responder_interface()
        impl.struct_size = MemoryLayout<seatkit_responder_interface>.size
        impl.touches_began = { data, _, _ in log(data).append("began"); return SEATKIT_HANDLED }
        impl.touches_ended = { data, _, _ in log(data).append("ended"); return SEATKIT_HANDLED }
        impl.touches_cancelled = { data, _, _ in log(data).append("cancelled") }
        impl.pointer_entered = { data, _, _ in log(data).append("entered") }
        impl.pointer_button = { data, e, _ in
            let e = e!.pointee
            log(data).append("button \(String(e.button, radix: 16)) \(e.state == SEATKIT_BUTTON_PRESSED ? "down" : "up") at \(Int(e.sx)),\(Int(e.sy))")
            return SEATKIT_HANDLED
        }
        return impl
    }()

    final class Log { var lines: [String] = [] }
    static func log(_ data: UnsafeMutableRawPointer?) -> Lines { Lines(Unmanaged<Log>.fromOpaque(data!).takeUnretainedValue()) }
    struct Lines {
        let log: Log
        init(_ log: Log) { self.log = log }
        func append(_ line: String) { log.lines.append(line) }
    }

    private func makeTree(_ app: Log) -> (OpaquePointer, OpaquePointer) {
        let router = seatkit_router_create_virtual(0)!
        let output = seatkit_output_create(router, "OUT-1", 0, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)!
        // A surface at (100, 100) so that surface coordinates differ from layout ones.
        let surface = seatkit_surface_create(router, "app", 100, 100, 700, 500)!
        withUnsafePointer(to: &Self.responder) {
            seatkit_surface_set_responder(surface, $0, Unmanaged.passUnretained(app).toOpaque())
        }
        #expect(seatkit_surface_add_child(seatkit_output_get_root(output), surface))
        return (router, output)
    }

    @Test func theTouchThatWakesABlankedScreenIsSwallowedWholeTheNextIsDelivered() {
        let app = Log()
        let (router, _) = makeTree(app)
        let woke = Log()
        let wake = seatkit_router_add_wake_filter(router, { data in
            CKioskPolicyTests.log(data).append("wake")
        }, Unmanaged.passUnretained(woke).toOpaque())!
        #expect(seatkit_kiosk_policy_blank(wake))
        #expect(seatkit_kiosk_policy_is_blanked(wake))
        // Two fingers of the waking touch, the second down after the screen woke.
        seatkit_router_notify_touch_down(router, 0, 1, 0, 300, 300)
        seatkit_router_notify_touch_frame(router, 0, 1)
        seatkit_router_notify_touch_down(router, 10_000, 1, 1, 400, 300)
        seatkit_router_notify_touch_frame(router, 10_000, 1)
        seatkit_router_notify_touch_up(router, 20_000, 1, 0)
        seatkit_router_notify_touch_up(router, 20_000, 1, 1)
        seatkit_router_notify_touch_frame(router, 20_000, 1)
        #expect(woke.lines == ["wake"])
        #expect(!seatkit_kiosk_policy_is_blanked(wake))
        #expect(app.lines.isEmpty, "nothing of the waking touch reaches the app")
        // Awake: the next touch is the app's.
        seatkit_router_notify_touch_down(router, 100_000, 1, 2, 300, 300)
        seatkit_router_notify_touch_frame(router, 100_000, 1)
        #expect(app.lines == ["began"])
        seatkit_kiosk_policy_destroy(wake)
        seatkit_router_destroy(router)
    }

    @Test func theCursorHidesOnTouchAndComesBackOnPointerMotion() {
        let app = Log()
        let (router, _) = makeTree(app)
        let seen = Log()
        let cursor = seatkit_router_add_cursor_visibility(router, { data, visible in
            CKioskPolicyTests.log(data).append(visible ? "show" : "hide")
        }, Unmanaged.passUnretained(seen).toOpaque())!
        #expect(seatkit_kiosk_policy_cursor_is_visible(cursor))
        seatkit_router_notify_touch_down(router, 0, 1, 0, 300, 300)
        seatkit_router_notify_touch_frame(router, 0, 1)
        #expect(!seatkit_kiosk_policy_cursor_is_visible(cursor))
        seatkit_router_notify_touch_up(router, 10_000, 1, 0)
        seatkit_router_notify_touch_frame(router, 10_000, 1)
        seatkit_router_notify_pointer_motion(router, 20_000, 2, 5, 5, 5, 5)
        #expect(seen.lines == ["hide", "show"])
        #expect(seatkit_kiosk_policy_blank(cursor) == false, "not a wake filter: refused")
        seatkit_router_destroy(router)
        // The router's destroy ended the policy's handle.
        #expect(seatkit_kiosk_policy_cursor_is_visible(cursor) == false)
    }

    @Test func aLongPressBecomesASecondaryClickAtTheFingerAndTheTouchIsCancelled() {
        let app = Log()
        let (router, output) = makeTree(app)
        let clicks = Log()
        let longPress = seatkit_output_add_long_press_secondary_click(output, 500_000, 10, { data, x, y in
            CKioskPolicyTests.log(data).append("clicked \(Int(x)),\(Int(y))")
        }, Unmanaged.passUnretained(clicks).toOpaque())
        #expect(longPress != nil)
        let seen = Log()
        _ = seatkit_router_add_cursor_visibility(router, { data, visible in
            CKioskPolicyTests.log(data).append(visible ? "show" : "hide")
        }, Unmanaged.passUnretained(seen).toOpaque())!
        seatkit_router_notify_touch_down(router, 0, 1, 0, 300, 250)
        seatkit_router_notify_touch_frame(router, 0, 1)
        // A short tap is not a long press.
        seatkit_router_advance_clock(router, 400_000)
        #expect(clicks.lines.isEmpty)
        seatkit_router_advance_clock(router, 600_000)
        #expect(clicks.lines == ["clicked 300,250"])
        #expect(app.lines == ["began", "cancelled", "entered", "button 111 down at 200,150", "button 111 up at 200,150"])
        seatkit_router_notify_touch_up(router, 700_000, 1, 0)
        seatkit_router_notify_touch_frame(router, 700_000, 1)
        #expect(app.lines.count == 5, "the rest of the touch is the recognizer's")
        // The synthetic click does not bring the cursor back.
        #expect(seen.lines == ["hide"])
        #expect(seatkit_output_add_long_press_secondary_click(output, 0, 10, nil, nil) == nil, "refused")
        seatkit_router_destroy(router)
    }
}
