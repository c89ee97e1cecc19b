import CSeatKitSupport
import Foundation
import Testing

/// The accessibility filters through the C API: the core's filters, switched per router.
@Suite(.serialized) struct CAccessibilityTests {
    nonisolated(unsafe) static var responder: seatkit_responder_interface = {
        var impl = seatkit_responder_interface()
        impl.struct_size = MemoryLayout<seatkit_responder_interface>.size
        impl.key_down = { data, e, _ in
            let e = e!.pointee
            log(data).lines.append("down \(e.keycode) \(e.text.map { String(cString: $0) } ?? "") latched \(e.mods_latched)")
            return SEATKIT_HANDLED
        }
        impl.key_up = { data, e, _ in log(data).lines.append("up \(e!.pointee.keycode)"); return SEATKIT_HANDLED }
        impl.pointer_button = { data, e, _ in
            let e = e!.pointee
            log(data).lines.append("button \(String(e.button, radix: 16)) \(e.state == SEATKIT_BUTTON_PRESSED ? "down" : "up")")
            return SEATKIT_HANDLED
        }
        impl.can_become_first_responder = { _ in true }
        return impl
    }()

    static let modifiersChanged: @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UInt32, UInt32) -> Void = { data, _, latched, locked, _ in
        CAccessibilityTests.log(data).lines.append("modifiers latched \(latched) locked \(locked)")
    }

    final class Log { var lines: [String] = [] }
    static func log(_ data: UnsafeMutableRawPointer?) -> Log { Unmanaged<Log>.fromOpaque(data!).takeUnretainedValue() }

    private func makeTree(_ app: Log) -> OpaquePointer {
        let router = seatkit_router_create_virtual(0)!
        let output = seatkit_output_create(router, "OUT-1", 0, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)!
        let surface = seatkit_surface_create(router, "app", 0, 0, 800, 600)!
        withUnsafePointer(to: &Self.responder) {
            seatkit_surface_set_responder(surface, $0, Unmanaged.passUnretained(app).toOpaque())
        }
        #expect(seatkit_surface_add_child(seatkit_output_get_root(output), surface))
        #expect(seatkit_router_set_first_responder(router, surface))
        return router
    }

    @Test func stickyShiftFromCLatchesForOneKeyAndTurningItOffTellsTheCompositor() {
        let app = Log()
        let router = makeTree(app)
        let keymap = seatkit_keymap_create_from_names(nil, nil, "us", nil, nil)!
        seatkit_router_set_keymap(router, keymap, 0, 0)
        let told = Log()
        let on = seatkit_router_set_sticky_keys(router, true, Self.modifiersChanged, Unmanaged.passUnretained(told).toOpaque())
        #expect(on)
        seatkit_router_notify_key(router, 0, 1, 42, SEATKIT_KEY_PRESSED)
        seatkit_router_notify_key(router, 10_000, 1, 42, SEATKIT_KEY_RELEASED)
        var latched: UInt32 = 0, locked: UInt32 = 0
        #expect(seatkit_router_get_sticky_modifiers(router, &latched, &locked))
        #expect(latched == UInt32(SEATKIT_MODIFIER_SHIFT.rawValue) && locked == 0)
        seatkit_router_notify_key(router, 20_000, 1, 30, SEATKIT_KEY_PRESSED)
        seatkit_router_notify_key(router, 30_000, 1, 30, SEATKIT_KEY_RELEASED)
        seatkit_router_notify_key(router, 40_000, 1, 30, SEATKIT_KEY_PRESSED)
        #expect(app.lines.filter { $0.hasPrefix("down 30") } == ["down 30 A latched 0", "down 30 a latched 0"])
        // Locked, then turned off: the compositor hears the lock go.
        seatkit_router_notify_key(router, 50_000, 1, 42, SEATKIT_KEY_PRESSED)
        seatkit_router_notify_key(router, 60_000, 1, 42, SEATKIT_KEY_RELEASED)
        seatkit_router_notify_key(router, 70_000, 1, 42, SEATKIT_KEY_PRESSED)
        seatkit_router_notify_key(router, 80_000, 1, 42, SEATKIT_KEY_RELEASED)
        #expect(seatkit_router_get_sticky_modifiers(router, &latched, &locked))
        #expect(locked == UInt32(SEATKIT_MODIFIER_SHIFT.rawValue))
        #expect(told.lines.isEmpty, "changes made by keys go out with the keys")
        let off = seatkit_router_set_sticky_keys(router, false, Self.modifiersChanged, Unmanaged.passUnretained(told).toOpaque())
        #expect(off)
        #expect(told.lines == ["modifiers latched 0 locked 0"], "turning it off unlocks Shift, and the compositor hears it")
        #expect(seatkit_router_get_sticky_modifiers(router, &latched, &locked))
        #expect(latched == 0 && locked == 0)
        seatkit_keymap_destroy(keymap)
        seatkit_router_destroy(router)
    }

    @Test func slowAndBounceKeysFromCWaitOnTheRoutersClock() {
        let app = Log()
        let router = makeTree(app)
        #expect(seatkit_router_set_slow_keys(router, true, 300_000))
        seatkit_router_notify_key(router, 0, 1, 30, SEATKIT_KEY_PRESSED)
        seatkit_router_advance_clock(router, 299_000)
        #expect(app.lines.isEmpty)
        seatkit_router_advance_clock(router, 300_000)
        #expect(app.lines == ["down 30  latched 0"])
        #expect(seatkit_router_set_slow_keys(router, false, 300_000))
        #expect(seatkit_router_set_bounce_keys(router, true, 300_000))
        seatkit_router_notify_key(router, 310_000, 1, 30, SEATKIT_KEY_RELEASED)
        seatkit_router_notify_key(router, 400_000, 1, 30, SEATKIT_KEY_PRESSED)   // 90 ms after the release: a bounce
        seatkit_router_notify_key(router, 410_000, 1, 30, SEATKIT_KEY_RELEASED)
        #expect(app.lines == ["down 30  latched 0", "up 30"])
        #expect(!seatkit_router_set_bounce_keys(router, true, -1), "a negative delay is refused")
        seatkit_router_destroy(router)
    }

    @Test func mouseKeysAndSimulatedSecondaryClickFromCClick() {
        let app = Log()
        let router = makeTree(app)
        seatkit_router_notify_pointer_motion_absolute(router, 0, 2, 100, 100)
        #expect(seatkit_router_set_mouse_keys(router, true, 160_000, 750, 1_200_000))
        seatkit_router_notify_key(router, 10_000, 1, 76, SEATKIT_KEY_PRESSED)   // KP5
        seatkit_router_notify_key(router, 20_000, 1, 76, SEATKIT_KEY_RELEASED)
        #expect(app.lines == ["button 110 down", "button 110 up"])
        #expect(seatkit_router_set_simulated_secondary_click(router, true, 1_200_000, 10))
        seatkit_router_notify_pointer_button(router, 100_000, 2, 0x110, SEATKIT_BUTTON_PRESSED)
        seatkit_router_advance_clock(router, 1_300_000)
        seatkit_router_notify_pointer_button(router, 1_400_000, 2, 0x110, SEATKIT_BUTTON_RELEASED)
        #expect(app.lines == ["button 110 down", "button 110 up", "button 110 down", "button 110 up", "button 111 down", "button 111 up"])
        #expect(!seatkit_router_set_dwell_click(router, true, 1_200_000, .nan), "a NaN threshold is refused")
        #expect(seatkit_router_get_dwell_progress(router, 0) == -1)
        seatkit_router_destroy(router)
    }

    /// A setter called again retunes the one filter its first call made (the setters share
    /// one path, `CAccessibility.set`): slow keys set to 300 ms, then 100 ms, wait 100 ms
    /// once (a second filter would keep a press another delay, and the first filter's 300 ms
    /// would hold it longer); bounce keys and dwell click likewise take the new delay.
    @Test func callingAnAccessibilitySetterAgainRetunesTheFilterItMadeInsteadOfAddingAnother() {
        let app = Log()
        let router = makeTree(app)
        #expect(seatkit_router_set_slow_keys(router, true, 300_000))
        #expect(seatkit_router_set_slow_keys(router, true, 100_000))
        seatkit_router_notify_key(router, 0, 1, 30, SEATKIT_KEY_PRESSED)
        seatkit_router_advance_clock(router, 99_000)
        #expect(app.lines.isEmpty)
        seatkit_router_advance_clock(router, 100_000)
        #expect(app.lines == ["down 30  latched 0"], "accepted once, after the second call's delay")
        seatkit_router_notify_key(router, 150_000, 1, 30, SEATKIT_KEY_RELEASED)
        #expect(seatkit_router_set_slow_keys(router, false, 100_000))

        #expect(seatkit_router_set_bounce_keys(router, true, 500_000))
        #expect(seatkit_router_set_bounce_keys(router, true, 50_000))
        seatkit_router_notify_key(router, 200_000, 1, 30, SEATKIT_KEY_PRESSED)   // 50 ms after the release: not a bounce
        seatkit_router_notify_key(router, 210_000, 1, 30, SEATKIT_KEY_RELEASED)
        #expect(app.lines == ["down 30  latched 0", "up 30", "down 30  latched 0", "up 30"])

        seatkit_router_notify_pointer_motion_absolute(router, 300_000, 2, 100, 100)
        #expect(seatkit_router_set_dwell_click(router, true, 1_000_000, 10))
        #expect(seatkit_router_set_dwell_click(router, true, 400_000, 10))
        seatkit_router_advance_clock(router, 400_000)
        seatkit_router_notify_pointer_motion_absolute(router, 400_000, 2, 200, 200)
        #expect(seatkit_router_get_dwell_progress(router, 600_000) == 0.5, "half of the second call's 400 ms")
        seatkit_router_destroy(router)
    }
}
