import CSeatKitSupport
import Foundation
import Testing

/// What a C responder or grab was told; `data` points at one.
final class Record {
    var log: [String] = []
    var grab: OpaquePointer?
    var router: OpaquePointer?
    var target: OpaquePointer?
    /// A grab's touch handlers forward through the route door when set.
    var forwardTouches = false
}

private func record(_ data: UnsafeMutableRawPointer?) -> Record {
    Unmanaged<Record>.fromOpaque(data!).takeUnretainedValue()
}

nonisolated(unsafe) private var recordingResponder: seatkit_responder_interface = {
    var impl = seatkit_responder_interface()
    impl.struct_size = MemoryLayout<seatkit_responder_interface>.size
    impl.touches_began = { data, e, _ in record(data).log.append("began \(e!.pointee.touch_count)"); return SEATKIT_HANDLED }
    impl.touches_moved = { data, _, _ in record(data).log.append("moved"); return SEATKIT_HANDLED }
    impl.touches_ended = { data, _, _ in record(data).log.append("ended"); return SEATKIT_HANDLED }
    impl.touches_cancelled = { data, _, _ in record(data).log.append("cancelled") }
    impl.pointer_entered = { data, _, _ in record(data).log.append("entered") }
    impl.pointer_left = { data, _, _ in record(data).log.append("left") }
    impl.pointer_button = { data, e, _ in
        let e = e!.pointee
        record(data).log.append("button \(String(e.button, radix: 16)) \(e.state == SEATKIT_BUTTON_PRESSED ? "down" : "up") at \(Int(e.sx)),\(Int(e.sy))")
        return SEATKIT_HANDLED
    }
    impl.key_down = { data, e, _ in record(data).log.append("key \(e!.pointee.keycode)"); return SEATKIT_HANDLED }
    impl.can_become_first_responder = { _ in true }
    return impl
}()

/// A lock screen: takes every touch and key, forwards nothing (unless told to forward
/// touches through the route door).
nonisolated(unsafe) private var lockGrab: seatkit_grab_interface = {
    var impl = seatkit_grab_interface()
    impl.struct_size = MemoryLayout<seatkit_grab_interface>.size
    impl.touch_down = { data, _, e in
        let r = record(data)
        r.log.append("grab down \(e!.pointee.touch_id)")
        if r.forwardTouches { seatkit_router_route_touch(r.router, e) }
    }
    impl.touch_motion = { data, _, e in
        let r = record(data)
        r.log.append("grab motion")
        if r.forwardTouches { seatkit_router_route_touch(r.router, e) }
    }
    impl.touch_up = { data, _, e in
        let r = record(data)
        r.log.append("grab up \(e!.pointee.touch_id)")
        if r.forwardTouches { seatkit_router_route_touch(r.router, e) }
    }
    impl.touch_frame = { data, _, e in
        let r = record(data)
        if r.forwardTouches { seatkit_router_route_touch(r.router, e) }
    }
    impl.key = { data, _, e in
        record(data).log.append("grab key \(e!.pointee.keycode) \(e!.pointee.state == SEATKIT_KEY_RELEASED ? "up" : "down")")
    }
    impl.cancel = { data, grab in
        let r = record(data)
        r.log.append("grab cancel")
        #expect(grab == r.grab)
    }
    return impl
}()

/// Only `cancel`: every event forwards through the default route.
nonisolated(unsafe) private var forwardingGrab: seatkit_grab_interface = {
    var impl = seatkit_grab_interface()
    impl.struct_size = MemoryLayout<seatkit_grab_interface>.size
    impl.cancel = { data, _ in record(data).log.append("grab cancel") }
    return impl
}()

private func opaque(_ r: Record) -> UnsafeMutableRawPointer { Unmanaged.passUnretained(r).toOpaque() }

@Suite(.serialized) struct CGrabTests {
    func makeTreeForExtension(_ app: Record) -> (router: OpaquePointer, output: OpaquePointer, app: OpaquePointer) {
        makeTree(app)
    }

    /// A router with one 800x600 output and an app surface filling it.
    private func makeTree(_ app: Record) -> (router: OpaquePointer, output: OpaquePointer, app: OpaquePointer) {
        let router = seatkit_router_create_virtual(0)!
        let output = seatkit_output_create(router, "OUT-1", 0, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)!
        let surface = seatkit_surface_create(router, "app", 0, 0, 800, 600)!
        withUnsafePointer(to: &recordingResponder) { seatkit_surface_set_responder(surface, $0, opaque(app)) }
        #expect(seatkit_surface_add_child(seatkit_output_get_root(output), surface))
        return (router, output, surface)
    }

    private func tap(_ router: OpaquePointer, _ id: Int32, at x: Double, _ y: Double, time: Int64) {
        seatkit_router_notify_touch_down(router, time, 1, id, x, y)
        seatkit_router_notify_touch_frame(router, time, 1)
        seatkit_router_notify_touch_up(router, time + 50_000, 1, id)
        seatkit_router_notify_touch_frame(router, time + 50_000, 1)
    }

    @Test func aLockScreenGrabStartedMidTouchCancelsTheAppsTouchOnceAndTakesTheRest() {
        let app = Record()
        let (router, _, surface) = makeTree(app)
        #expect(seatkit_router_set_first_responder(router, surface))
        seatkit_router_notify_touch_down(router, 0, 1, 0, 100, 100)
        seatkit_router_notify_touch_frame(router, 0, 1)
        #expect(app.log == ["began 1"])

        let lock = Record()
        let grab = withUnsafePointer(to: &lockGrab) { seatkit_grab_create(router, $0, opaque(lock)) }!
        lock.grab = grab
        #expect(seatkit_router_start_touch_grab(router, grab))
        #expect(seatkit_router_start_keyboard_grab(router, grab))
        #expect(seatkit_router_get_touch_grab(router) == grab)
        // The app hears its touch cancelled, once.
        #expect(app.log == ["began 1", "cancelled"])

        // The rest of that finger, a new finger and a key: the lock screen's.
        seatkit_router_notify_touch_motion(router, 10_000, 1, 0, 120, 100)
        seatkit_router_notify_touch_frame(router, 10_000, 1)
        seatkit_router_notify_touch_up(router, 20_000, 1, 0)
        seatkit_router_notify_touch_frame(router, 20_000, 1)
        tap(router, 1, at: 300, 300, time: 30_000)
        seatkit_router_notify_key(router, 100_000, 2, 30, SEATKIT_KEY_PRESSED)
        seatkit_router_notify_key(router, 110_000, 2, 30, SEATKIT_KEY_RELEASED)
        #expect(app.log == ["began 1", "cancelled"])
        #expect(lock.log == ["grab motion", "grab up 0", "grab down 1", "grab up 1", "grab key 30 down", "grab key 30 up"])

        // Unlocked: cancel once for the one grab, whose two classes end together.
        seatkit_router_end_grab(router, grab)
        #expect(lock.log.filter { $0 == "grab cancel" }.count == 2, "once per class started")
        #expect(seatkit_router_get_touch_grab(router) == nil)
        tap(router, 2, at: 300, 300, time: 200_000)
        #expect(app.log == ["began 1", "cancelled", "began 1", "ended"])
        seatkit_grab_destroy(grab)
        seatkit_router_destroy(router)
    }

    @Test func aGrabWithoutHandlersForwardsAndItsEndCancelsWhatItForwarded() {
        let app = Record()
        let (router, _, _) = makeTree(app)
        let forward = Record()
        let grab = withUnsafePointer(to: &forwardingGrab) { seatkit_grab_create(router, $0, opaque(forward)) }!
        #expect(seatkit_router_start_touch_grab(router, grab))
        seatkit_router_notify_touch_down(router, 0, 1, 0, 100, 100)
        seatkit_router_notify_touch_frame(router, 0, 1)
        #expect(app.log == ["began 1"], "a NULL handler forwards through the default route")
        seatkit_router_end_touch_grab(router)
        #expect(app.log == ["began 1", "cancelled"])
        #expect(forward.log == ["grab cancel"])
        seatkit_router_destroy(router)
    }

    @Test func aGrabForwardsThroughTheRouteDoorItself() {
        let app = Record()
        let (router, _, _) = makeTree(app)
        let spy = Record()
        spy.router = router
        spy.forwardTouches = true
        let grab = withUnsafePointer(to: &lockGrab) { seatkit_grab_create(router, $0, opaque(spy)) }!
        spy.grab = grab
        #expect(seatkit_router_start_touch_grab(router, grab))
        tap(router, 0, at: 50, 50, time: 0)
        #expect(spy.log == ["grab down 0", "grab up 0"])
        #expect(app.log == ["began 1", "ended"])
        // A non-touch event is refused by route_touch, logged, never trapped.
        var bad = seatkit_input_event()
        bad.type = SEATKIT_INPUT_KEY
        seatkit_router_route_touch(router, &bad)
        seatkit_router_route_touch(router, nil)
        seatkit_router_destroy(router)
        // The router's destroy ended the grab's handle.
        #expect(seatkit_router_get_touch_grab(router) == nil)
    }

    @Test func aPopupIsDismissedByATapOutsideWhichNobodyGets() {
        let app = Record()
        let (router, output, _) = makeTree(app)
        let menu = Record()
        let popup = seatkit_surface_create(router, "menu", 100, 100, 200, 200)!
        withUnsafePointer(to: &recordingResponder) { seatkit_surface_set_responder(popup, $0, opaque(menu)) }
        #expect(seatkit_surface_add_child(seatkit_output_get_root(output), popup))

        let dismissed = Record()
        let grab = seatkit_router_start_popup_grab(router, popup, { data, grab in
            record(data).log.append("dismissed")
            record(data).grab = grab
        }, opaque(dismissed))
        #expect(grab != nil)
        #expect(seatkit_router_start_keyboard_grab(router, grab) == false, "a popup grab is pointer and touch only")
        // Inside: the popup gets it.
        tap(router, 0, at: 150, 150, time: 0)
        #expect(menu.log == ["began 1", "ended"])
        #expect(dismissed.log.isEmpty)
        // Outside: dismissed, and the tap reaches nobody.
        tap(router, 1, at: 600, 500, time: 100_000)
        #expect(dismissed.log == ["dismissed"])
        #expect(dismissed.grab == grab)
        // The pointer grab's end gives the pointer back to what is under it (the app), but
        // no touch of the tap reaches it.
        #expect(app.log == ["entered"])
        #expect(menu.log == ["began 1", "ended"])
        // The handle went with the dismissal; the next tap is the app's.
        #expect(seatkit_router_get_pointer_grab(router) == nil)
        seatkit_grab_destroy(grab)
        tap(router, 2, at: 600, 500, time: 200_000)
        #expect(app.log == ["entered", "began 1", "ended"])
        seatkit_router_destroy(router)
    }

    @Test func aPointerGrabSwallowsAClickAndSendsOneWhereItChooses() {
        let app = Record()
        let (router, output, surface) = makeTree(app)
        let other = Record()
        let side = seatkit_surface_create(router, "side", 0, 0, 100, 100)!
        withUnsafePointer(to: &recordingResponder) { seatkit_surface_set_responder(side, $0, opaque(other)) }
        #expect(seatkit_surface_add_child(seatkit_output_get_root(output), side))
        seatkit_router_notify_pointer_motion_absolute(router, 0, 3, 400, 300)
        #expect(app.log == ["entered"])

        var impl = seatkit_grab_interface()

        impl.struct_size = MemoryLayout<seatkit_grab_interface>.size
        impl.pointer_button = { data, _, e in
            let r = record(data)
            r.log.append("grab button")
            // Redirects the click to the side surface, raw.
            _ = seatkit_router_send_pointer_button(r.router, e, r.target)
        }
        let g = Record()
        g.router = router
        g.target = side
        let grab = withUnsafePointer(to: &impl) { seatkit_grab_create(router, $0, opaque(g)) }!
        #expect(seatkit_router_start_pointer_grab(router, grab))
        #expect(app.log == ["entered", "left"], "the focus leaves when a pointer grab starts")
        seatkit_router_notify_pointer_button(router, 10_000, 3, 0x110, SEATKIT_BUTTON_PRESSED)
        seatkit_router_notify_pointer_button(router, 20_000, 3, 0x110, SEATKIT_BUTTON_RELEASED)
        #expect(g.log == ["grab button", "grab button"])
        #expect(other.log == ["button 110 down at 400,300", "button 110 up at 400,300"])
        #expect(app.log == ["entered", "left"])
        seatkit_grab_destroy(grab)
        // The default rule again: focus is the app's.
        #expect(app.log.last == "entered")
        _ = surface
        seatkit_router_destroy(router)
    }

    @Test func destroyingASurfaceMidTouchTellsItsResponderExactlyOneCancel() {
        let app = Record()
        let (router, _, surface) = makeTree(app)
        seatkit_router_notify_touch_down(router, 0, 1, 0, 100, 100)
        seatkit_router_notify_touch_down(router, 0, 1, 1, 200, 100)
        seatkit_router_notify_touch_frame(router, 0, 1)
        seatkit_surface_destroy(surface)
        #expect(app.log == ["began 2", "cancelled"])
        // The rest of those fingers reaches nobody.
        seatkit_router_notify_touch_up(router, 10_000, 1, 0)
        seatkit_router_notify_touch_up(router, 10_000, 1, 1)
        seatkit_router_notify_touch_frame(router, 10_000, 1)
        #expect(app.log == ["began 2", "cancelled"])
        seatkit_router_destroy(router)
    }

    @Test func destroyingAnOutputMidTouchTellsItsSurfacesExactlyOneCancel() {
        let app = Record()
        let (router, output, _) = makeTree(app)
        seatkit_router_notify_touch_down(router, 0, 1, 0, 100, 100)
        seatkit_router_notify_touch_frame(router, 0, 1)
        seatkit_output_destroy(output)
        #expect(app.log == ["began 1", "cancelled"])
        seatkit_router_destroy(router)
    }
}

extension CGrabTests {
    @Test func destroyingThePopupSurfaceDismissesItsGrab() {
        let app = Record()
        let (router, output, _) = makeTreeForExtension(app)
        let popup = seatkit_surface_create(router, "menu", 100, 100, 200, 200)!
        #expect(seatkit_surface_add_child(seatkit_output_get_root(output), popup))
        let dismissed = Record()
        let grab = seatkit_router_start_popup_grab(router, popup, { data, _ in record(data).log.append("dismissed") },
                                                   Unmanaged.passUnretained(dismissed).toOpaque())
        #expect(grab != nil)
        seatkit_surface_destroy(popup)
        #expect(dismissed.log == ["dismissed"])
        #expect(seatkit_router_get_touch_grab(router) == nil)
        seatkit_router_notify_touch_down(router, 0, 1, 0, 600, 500)
        seatkit_router_notify_touch_frame(router, 0, 1)
        #expect(app.log == ["entered", "began 1"] || app.log == ["began 1"], "input goes by the default rule again: \(app.log)")
        seatkit_router_destroy(router)
    }
}

extension CGrabTests {
    /// A C grab that forwards buttons through the route door: the focus hears them
    /// in its own space, as it does when the router delivers them itself (the C events carry
    /// layout coordinates only).
    @Test func buttonsForwardedThroughTheRouteDoorArriveInTheFocusSpace() {
        let router = seatkit_router_create_virtual(0)!
        let output = seatkit_output_create(router, "OUT-1", 0, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)!
        let app = Record()
        let surface = seatkit_surface_create(router, "app", 100, 50, 600, 500)!
        withUnsafePointer(to: &recordingResponder) { seatkit_surface_set_responder(surface, $0, opaque(app)) }
        #expect(seatkit_surface_add_child(seatkit_output_get_root(output), surface))

        var impl = seatkit_grab_interface()

        impl.struct_size = MemoryLayout<seatkit_grab_interface>.size
        impl.pointer_motion = { data, _, e in seatkit_router_route_pointer_motion(record(data).router, e) }
        impl.pointer_button = { data, _, e in seatkit_router_route_pointer_button(record(data).router, e) }
        let g = Record()
        g.router = router
        let grab = withUnsafePointer(to: &impl) { seatkit_grab_create(router, $0, opaque(g)) }!
        #expect(seatkit_router_start_pointer_grab(router, grab))
        seatkit_router_notify_pointer_motion_absolute(router, 0, 3, 400, 300)
        seatkit_router_notify_pointer_button(router, 10_000, 3, 0x110, SEATKIT_BUTTON_PRESSED)
        seatkit_router_notify_pointer_button(router, 20_000, 3, 0x110, SEATKIT_BUTTON_RELEASED)
        #expect(app.log.contains("button 110 down at 300,250"), "\(app.log)")
        #expect(app.log.contains("button 110 up at 300,250"), "\(app.log)")
        seatkit_grab_destroy(grab)
        seatkit_router_destroy(router)
    }
}

/// A responder that logs keys and focus: "key 30", "key up 30", "became", "resigned".
nonisolated(unsafe) private var keyResponder: seatkit_responder_interface = {
    var impl = seatkit_responder_interface()
    impl.struct_size = MemoryLayout<seatkit_responder_interface>.size
    impl.key_down = { data, e, _ in record(data).log.append("key \(e!.pointee.keycode)"); return SEATKIT_HANDLED }
    impl.key_up = { data, e, _ in record(data).log.append("key up \(e!.pointee.keycode)"); return SEATKIT_HANDLED }
    impl.can_become_first_responder = { _ in true }
    impl.did_become_first_responder = { data, _ in record(data).log.append("became") }
    impl.did_resign_first_responder = { data, _ in record(data).log.append("resigned") }
    return impl
}()

/// Issue 23 through the C API: keyboard grab focus modes and nested popup grabs.
extension CGrabTests {
    @Test func aKeyboardGrabThatClearsFocusReleasesTheAppsKeyResignsItAndGivesFocusBack() {
        let router = seatkit_router_create_virtual(0)!
        let output = seatkit_output_create(router, "OUT-1", 0, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)!
        let app = Record()
        let surface = seatkit_surface_create(router, "app", 0, 0, 800, 600)!
        withUnsafePointer(to: &keyResponder) { seatkit_surface_set_responder(surface, $0, opaque(app)) }
        #expect(seatkit_surface_add_child(seatkit_output_get_root(output), surface))
        #expect(seatkit_router_set_first_responder(router, surface))
        seatkit_router_notify_key(router, 0, 2, 30, SEATKIT_KEY_PRESSED)
        let lock = Record()
        let grab = withUnsafePointer(to: &lockGrab) { seatkit_grab_create(router, $0, opaque(lock)) }!
        lock.grab = grab
        #expect(!seatkit_router_start_keyboard_grab_with_focus(router, grab, seatkit_keyboard_grab_focus(rawValue: 7)))
        #expect(seatkit_router_start_keyboard_grab_with_focus(router, grab, SEATKIT_KEYBOARD_GRAB_CLEAR_FOCUS))
        #expect(app.log == ["became", "key 30", "key up 30", "resigned"])
        seatkit_router_notify_key(router, 10_000, 2, 31, SEATKIT_KEY_PRESSED)
        seatkit_router_end_keyboard_grab(router)
        // Focus is back; neither key's release reaches the app, whose presses it did not see
        // (30's it was told) or never saw (31).
        seatkit_router_notify_key(router, 20_000, 2, 30, SEATKIT_KEY_RELEASED)
        seatkit_router_notify_key(router, 30_000, 2, 31, SEATKIT_KEY_RELEASED)
        #expect(app.log == ["became", "key 30", "key up 30", "resigned", "became"])
        seatkit_router_destroy(router)
    }

    @Test func aNestedPopupGrabStacksOnItsParentAndATapOutsideBothDismissesThemInnermostFirst() {
        let app = Record()
        let (router, output, _) = makeTreeForExtension(app)
        let dismissed = Record()
        var grabs: [OpaquePointer] = []
        let menus = [Record(), Record()]   // alive as long as the router calls them
        for (i, (name, x)) in [("menu", 100.0), ("submenu", 300.0)].enumerated() {
            let popup = seatkit_surface_create(router, name, x, 100, 200, 200)!
            let menu = menus[i]
            withUnsafePointer(to: &recordingResponder) { seatkit_surface_set_responder(popup, $0, opaque(menu)) }
            #expect(seatkit_surface_add_child(seatkit_output_get_root(output), popup))
            let grab = seatkit_router_start_nested_popup_grab(router, popup, grabs.last, { data, grab in
                let r = record(data)
                r.log.append(r.grab == grab ? "menu" : "submenu")
            }, opaque(dismissed))!
            if grabs.isEmpty { dismissed.grab = grab }
            grabs.append(grab)
        }
        #expect(dismissed.log.isEmpty, "the submenu's grab stacks on the menu's")
        #expect(seatkit_router_get_touch_grab(router) == grabs[1])
        tap(router, 0, at: 150, 150, time: 0)   // inside the menu: delivered, nothing dismissed
        #expect(dismissed.log.isEmpty)
        tap(router, 1, at: 700, 500, time: 100_000)
        #expect(dismissed.log == ["submenu", "menu"])
        #expect(app.log.filter { $0.hasPrefix("began") }.isEmpty, "the dismissing tap reaches no one")
        #expect(menus[0].log == ["began 1", "ended"])
        seatkit_router_destroy(router)
    }
}

extension CGrabTests {
    /// A popup shown on two outputs through the C API (seatkit_router_start_popup_grab_with_parts):
    /// a tap on its part on the second output reaches the part; a tap outside both parts, on the
    /// second output, dismisses it and reaches nobody. A part of another router is refused.
    @Test func aPopupGrabWithPartsTakesTapsOnThePartOnTheSecondOutputAndIsDismissedOutsideThem() {
        let app = Record()
        let (router, first, _) = makeTreeForExtension(app)
        let second = seatkit_output_create(router, "OUT-2", 800, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)!
        let menu = Record()
        let popup = seatkit_surface_create(router, "menu", 700, 100, 200, 200)!
        let part = seatkit_surface_create(router, "menu", -100, 100, 200, 200)!
        for surface in [popup, part] {
            withUnsafePointer(to: &recordingResponder) { seatkit_surface_set_responder(surface, $0, opaque(menu)) }
        }
        #expect(seatkit_surface_add_child(seatkit_output_get_root(second), part))
        #expect(seatkit_surface_add_child(seatkit_output_get_root(first), popup))

        let other = seatkit_router_create_virtual(0)!
        let foreign = seatkit_surface_create(other, "foreign", 0, 0, 10, 10)!
        var refused: [OpaquePointer?] = [foreign]
        #expect(seatkit_router_start_popup_grab_with_parts(router, popup, &refused, 1, nil, nil, nil) == nil)

        let dismissed = Record()
        var parts: [OpaquePointer?] = [part]
        let grab = seatkit_router_start_popup_grab_with_parts(router, popup, &parts, 1, nil, { data, _ in
            record(data).log.append("dismissed")
        }, opaque(dismissed))
        #expect(grab != nil)
        tap(router, 0, at: 850, 150, time: 0)   // the part, on the second output
        #expect(menu.log == ["began 1", "ended"], "\(menu.log)")
        #expect(dismissed.log.isEmpty)
        tap(router, 1, at: 1400, 500, time: 100_000)   // outside both, on the second output
        #expect(dismissed.log == ["dismissed"])
        #expect(menu.log == ["began 1", "ended"])
        #expect(!app.log.contains { $0.hasPrefix("began") }, "\(app.log)")
        seatkit_router_destroy(other)
        seatkit_router_destroy(router)
    }
}
