import CSeatKitSupport
import SeededRandom
import Testing

/// Coordinates for the fuzzer: mostly in range, sometimes NaN or infinite.
private extension SplitMix64 {
    mutating func coordinate() -> Double {
        switch below(6) {
        case 0: return .nan
        case 1: return -.infinity
        default: return Double(below(900))
        }
    }
}

/// A grab that forwards some events itself through the route door, ends itself, or destroys
/// surfaces from inside its handlers; `data` is unused (the router comes with the event).
nonisolated(unsafe) private var chaosRouter: OpaquePointer?
nonisolated(unsafe) private var chaosVictim: OpaquePointer?
nonisolated(unsafe) private var chaosGrab: seatkit_grab_interface = {
    var impl = seatkit_grab_interface()
    impl.struct_size = MemoryLayout<seatkit_grab_interface>.size
    impl.touch_down = { _, grab, e in
        seatkit_router_route_touch(chaosRouter, e)
        if e!.pointee.touch_id == 2 { seatkit_surface_destroy(chaosVictim) }
    }
    impl.touch_up = { _, grab, e in
        seatkit_router_route_touch(chaosRouter, e)
        if e!.pointee.touch_id == 3 { seatkit_router_end_grab(chaosRouter, grab) }
    }
    impl.pointer_button = { _, grab, e in
        seatkit_router_route_pointer_button(chaosRouter, e)
        if e!.pointee.button == 0x112 { seatkit_grab_destroy(grab) }
    }
    impl.key = { _, grab, e in seatkit_router_send_key(chaosRouter, e) }
    return impl
}()

/// Grabs, popup grabs and kiosk policies under random calls with random handles (live,
/// destroyed, of another kind, NULL) and values, grabs ending and surfaces dying from inside
/// grab handlers: refused and logged, never a trap.
extension TheProcessWideCLog {
    @Suite struct GrabMisuseFuzzTests {
        @Test func twentyThousandRandomGrabCallsNeverTrap() {
            seatkit_log_init(SEATKIT_SILENT, nil)
            defer { seatkit_log_init(SEATKIT_ERROR, nil) }
            var random = SplitMix64(seed: 29)
            let router = seatkit_router_create_virtual(0)!
            chaosRouter = router
            let output = seatkit_output_create(router, "out", 0, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)!
            var surfaces: [OpaquePointer?] = [nil, seatkit_output_get_root(output)]
            var grabs: [OpaquePointer?] = [nil, router]
            var policies: [OpaquePointer?] = [nil, output]
            func pick(_ list: [OpaquePointer?]) -> OpaquePointer? { list[random.below(list.count)] }
            var started = 0

            for step in 0..<20_000 {
                let t = Int64(step) * 1000
                switch random.below(20) {
                case 0:
                    let s = seatkit_surface_create(router, nil, random.coordinate(), random.coordinate(), 300, 300)
                    _ = seatkit_surface_add_child(pick(surfaces), s)
                    surfaces.append(s)
                    chaosVictim = s
                case 1: seatkit_surface_destroy(pick(surfaces))
                case 2: grabs.append(withUnsafePointer(to: &chaosGrab) { seatkit_grab_create(random.below(5) == 0 ? nil : router, $0, nil) })
                case 3: if seatkit_router_start_touch_grab(router, pick(grabs)) { started += 1 }
                case 4: _ = seatkit_router_start_pointer_grab(router, pick(grabs))
                case 5: _ = seatkit_router_start_keyboard_grab(router, pick(grabs))
                case 6: grabs.append(seatkit_router_start_popup_grab(router, pick(surfaces), nil, nil))
                case 7: seatkit_grab_destroy(pick(grabs + surfaces))
                case 8: seatkit_router_end_grab(router, pick(grabs))
                case 9:
                    switch random.below(3) {
                    case 0: seatkit_router_end_pointer_grab(router)
                    case 1: seatkit_router_end_touch_grab(router)
                    default: seatkit_router_end_keyboard_grab(router)
                    }
                case 10: seatkit_router_notify_touch_down(router, t, 1, Int32(random.below(5)), random.coordinate(), random.coordinate())
                case 11: seatkit_router_notify_touch_up(router, t, 1, Int32(random.below(5)))
                case 12: seatkit_router_notify_touch_frame(router, t, 1)
                case 13: seatkit_router_notify_pointer_button(router, t, 3, UInt32(0x110 + random.below(3)),
                                                             seatkit_button_state(rawValue: UInt32(random.below(3))))
                case 14: seatkit_router_notify_pointer_motion_absolute(router, t, 3, random.coordinate(), random.coordinate())
                case 15:
                    var e = seatkit_input_event()
                    e.type = seatkit_input_event_type(rawValue: UInt32(random.below(16)))
                    e.touch_id = Int32(random.below(5))
                    e.x = random.coordinate()
                    e.y = random.coordinate()
                    let target = random.below(4) == 0 ? pick(surfaces) : router
                    if random.below(5) == 0 { seatkit_router_route_touch(target, nil) } else { seatkit_router_route_touch(target, &e) }
                case 16:
                    var e = seatkit_pointer_button_event()
                    e.button = 0x110
                    e.state = seatkit_button_state(rawValue: UInt32(random.below(3)))
                    e.x = random.coordinate()
                    e.y = random.coordinate()
                    _ = seatkit_router_send_pointer_button(router, &e, pick(surfaces + grabs))
                    _ = seatkit_router_set_pointer_focus(router, pick(surfaces + grabs), t)
                case 17:
                    switch random.below(3) {
                    case 0: policies.append(seatkit_router_add_wake_filter(random.below(4) == 0 ? nil : router, nil, nil))
                    case 1: policies.append(seatkit_router_add_cursor_visibility(router, random.below(3) == 0 ? nil : { _, _ in }, nil))
                    default: policies.append(seatkit_output_add_long_press_secondary_click(
                        pick([output, nil, router]), Int64(random.below(3)) * 300_000, random.coordinate() / 10, nil, nil))
                    }
                case 18:
                    _ = seatkit_kiosk_policy_blank(pick(policies))
                    if random.below(4) == 0 { seatkit_kiosk_policy_destroy(pick(policies + grabs)) }
                default: seatkit_router_advance_clock(router, t)
                }
            }
            #expect(started > 100, "the run really started grabs: \(started)")
            seatkit_router_destroy(router)
            for grab in grabs { #expect(seatkit_router_get_touch_grab(grab) == nil) }
            chaosRouter = nil
            chaosVictim = nil
        }
    }
}
