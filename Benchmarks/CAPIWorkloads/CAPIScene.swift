import CSeatKitSupport

/// What a C responder counts (its user data), as a C compositor would keep it: plain memory,
/// no reference counting.
public struct CCounts {
    public var calls = 0
    public var drops = 0
    var takesTouches: Bool
    var focusable: Bool
}

@inline(__always)
private func counts(_ data: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<CCounts> {
    data!.assumingMemoryBound(to: CCounts.self)
}

private func take(_ data: UnsafeMutableRawPointer?) -> seatkit_result {
    let c = counts(data)
    c.pointee.calls += 1
    return c.pointee.takesTouches ? SEATKIT_HANDLED : SEATKIT_NOT_HANDLED
}

/// The C vtable of RoutingScene's CountingResponder: the same answers, as C callbacks.
nonisolated(unsafe) private var countingImpl: seatkit_responder_interface = {
    var impl = seatkit_responder_interface()
    impl.struct_size = MemoryLayout<seatkit_responder_interface>.size
    impl.touches_began = { data, _, _ in take(data) }
    impl.touches_moved = { data, _, _ in take(data) }
    impl.touches_ended = { data, _, _ in take(data) }
    impl.pointer_entered = { data, _, _ in counts(data).pointee.calls += 1 }
    impl.pointer_left = { data, _, _ in counts(data).pointee.calls += 1 }
    impl.pointer_moved = { data, _, _ in
        counts(data).pointee.calls += 1
        return SEATKIT_NOT_HANDLED
    }
    impl.pointer_button = { data, _, _ in
        counts(data).pointee.calls += 1
        return SEATKIT_HANDLED
    }
    impl.key_down = { data, _, _ in
        counts(data).pointee.calls += 1
        return SEATKIT_HANDLED
    }
    impl.key_up = { data, _, _ in
        counts(data).pointee.calls += 1
        return SEATKIT_HANDLED
    }
    impl.can_become_first_responder = { data in counts(data).pointee.focusable }
    return impl
}()

nonisolated(unsafe) private var countingDelegate: seatkit_delegate_interface = {
    var impl = seatkit_delegate_interface()
    impl.struct_size = MemoryLayout<seatkit_delegate_interface>.size
    impl.dropped = { data, _ in counts(data).pointee.drops += 1 }
    return impl
}()

/// RoutingScene built through the C API: the same 1920×1080 output, five-deep chain
/// (root › d0 › … › d4), 20 sibling panels, a pan on d0 that would need 100 m to begin and a
/// two-finger long press on the leaf that never fires, and responders that count and answer
/// as CountingResponder does, as C callbacks. The events are the same as RoutingScene's,
/// through seatkit_router_notify_*.
public final class CAPIScene {
    public let router: OpaquePointer
    public let delegate = CAPIScene.allocate(CCounts(takesTouches: false, focusable: false))
    public private(set) var chain: [OpaquePointer] = []
    private var responders: [UnsafeMutablePointer<CCounts>] = []
    private var time: Int64 = 0

    public init() {
        router = seatkit_router_create_virtual(0)!
        withUnsafePointer(to: &countingDelegate) {
            seatkit_router_set_delegate(router, $0, UnsafeMutableRawPointer(delegate))
        }
        let output = seatkit_output_create(router, "bench", 0, 0, 1920, 1080, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)!
        var parent = seatkit_output_get_root(output)!
        for depth in 0..<5 {
            let surface = seatkit_surface_create(router, "d\(depth)", 10, 10, 400 - Double(depth) * 50, 400)!
            setResponder(surface, CCounts(takesTouches: depth == 0, focusable: depth == 4))
            _ = seatkit_surface_add_child(parent, surface)
            chain.append(surface)
            parent = surface
        }
        for i in 0..<20 {
            let panel = seatkit_surface_create(router, "panel\(i)", 500 + Double(i) * 20, 0, 15, 500)!
            setResponder(panel, CCounts(takesTouches: false, focusable: false))
            _ = seatkit_surface_add_child(seatkit_output_get_root(output), panel)
        }
        let pan = seatkit_recognizer_create_pan(router, "bench-pan", 1, 0)
        _ = seatkit_recognizer_set_minimum_distance(pan, 100_000)
        _ = seatkit_surface_add_recognizer(chain[0], pan)
        let press = seatkit_recognizer_create_long_press(router, "bench-long-press", 3_600_000_000, 2)
        _ = seatkit_recognizer_set_allowable_movement(press, 1_000_000)
        _ = seatkit_surface_add_recognizer(chain[4], press)
    }

    deinit {
        seatkit_router_destroy(router)
        for c in responders { c.deallocate() }
        delegate.deallocate()
    }

    private static func allocate(_ counts: CCounts) -> UnsafeMutablePointer<CCounts> {
        let pointer = UnsafeMutablePointer<CCounts>.allocate(capacity: 1)
        pointer.initialize(to: counts)
        return pointer
    }

    private func setResponder(_ surface: OpaquePointer, _ counts: CCounts) {
        let c = CAPIScene.allocate(counts)
        responders.append(c)
        withUnsafePointer(to: &countingImpl) {
            seatkit_surface_set_responder(surface, $0, UnsafeMutableRawPointer(c))
        }
    }

    /// Calls counted by every responder (to check both sides did the same work).
    public var responderCalls: Int { responders.reduce(0) { $0 + $1.pointee.calls } }

    @inline(__always)
    private func tick() -> Int64 {
        time &+= 1
        return time * 1000
    }

    public func putTwoFingersDown() {
        let t = tick()
        seatkit_router_notify_touch_down(router, t, 0, 0, 60, 60)
        seatkit_router_notify_touch_down(router, t, 0, 1, 70, 60)
        seatkit_router_notify_touch_frame(router, t, 0)
        moveFinger(0, step: 1)
    }

    @inline(__always)
    public func moveFinger(_ id: Int32, step: Int) {
        seatkit_router_notify_touch_motion(router, tick(), 0, id, 80 + Double(step % 50), 61)
        seatkit_router_notify_touch_frame(router, tick(), 0)
    }

    @inline(__always)
    public func movePointerAcross(step: Int) {
        let x = step & 1 == 0 ? 505 + Double((step >> 1) % 7) * 20 : 60 + Double(step % 7)
        seatkit_router_notify_pointer_motion_absolute(router, tick(), 0, x, 60)
    }

    @inline(__always)
    public func key(pressed: Bool) {
        seatkit_router_notify_key(router, tick(), 0, 30, pressed ? SEATKIT_KEY_PRESSED : SEATKIT_KEY_RELEASED)
    }

    public func focusLeaf() {
        _ = seatkit_router_set_first_responder(router, chain[4])
    }
}
