import CSeatKitSupport
import Testing

/// What a C responder was told: the handler, and the context's handles.
private struct ContextRecord: Equatable {
    var call: String
    var surface: OpaquePointer?
    var output: OpaquePointer?
    var target: OpaquePointer?
    var router: OpaquePointer?
}

/// The user data of one surface's responder: its records go to the test's shared list.
private final class ContextProbe {
    let records: ContextLog
    init(_ records: ContextLog) { self.records = records }
}

private final class ContextLog {
    var records: [ContextRecord] = []
}

private func record(_ data: UnsafeMutableRawPointer?, _ call: String, _ c: UnsafePointer<seatkit_event_context>?) {
    let probe = Unmanaged<ContextProbe>.fromOpaque(data!).takeUnretainedValue()
    let c = c!.pointee
    probe.records.records.append(ContextRecord(call: call, surface: c.surface, output: c.output, target: c.target, router: c.router))
}

nonisolated(unsafe) private var contextRecorder: seatkit_responder_interface = {
    var impl = seatkit_responder_interface()
    impl.struct_size = MemoryLayout<seatkit_responder_interface>.size
    impl.pointer_entered = { data, _, c in record(data, "entered", c) }
    impl.pointer_left = { data, _, c in record(data, "left", c) }
    impl.pointer_moved = { data, _, c in
        record(data, "moved", c)
        return SEATKIT_NOT_HANDLED
    }
    return impl
}()

/// The context a C responder gets names its router, its own surface and the event's target on
/// every path the C API builds it by (a responder's own context for its surface's events and
/// crossings, the cached target for the links above, the full lookup after the surfaces change).
struct CEventContextTests {
    @Test func everyLinkOfAPointerWalkGetsItsOwnSurfaceAndTheHitSurfaceAsTarget() {
        let log = ContextLog()
        let router = seatkit_router_create_virtual(0)!
        defer { seatkit_router_destroy(router) }
        let output = seatkit_output_create(router, "OUT-1", 0, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)!
        var probes: [ContextProbe] = []
        func make(_ name: String, in parent: OpaquePointer) -> OpaquePointer {
            let surface = seatkit_surface_create(router, name, 0, 0, 400, 400)!
            let probe = ContextProbe(log)
            probes.append(probe)
            withUnsafePointer(to: &contextRecorder) {
                seatkit_surface_set_responder(surface, $0, Unmanaged.passUnretained(probe).toOpaque())
            }
            #expect(seatkit_surface_add_child(parent, surface))
            return surface
        }
        let a = make("a", in: seatkit_output_get_root(output)!)
        let b = make("b", in: a)
        let leaf = make("leaf", in: b)

        func walk(to target: OpaquePointer) -> [ContextRecord] {
            [target, b, a].map { ContextRecord(call: "moved", surface: $0, output: nil, target: target, router: router) }
        }

        seatkit_router_notify_pointer_motion_absolute(router, 1000, 0, 20, 20)
        #expect(log.records == [ContextRecord(call: "entered", surface: leaf, output: nil, target: leaf, router: router)]
            + walk(to: leaf))
        // Again: the links above the leaf find its handle in the one-entry cache.
        log.records.removeAll()
        seatkit_router_notify_pointer_motion_absolute(router, 2000, 0, 21, 20)
        #expect(log.records == walk(to: leaf))

        // The leaf goes and another surface takes its place (maybe at its address): the
        // caches are cleared, and the context names the new surface's handle.
        seatkit_surface_destroy(leaf)
        let next = make("next", in: b)
        log.records.removeAll()
        seatkit_router_notify_pointer_motion_absolute(router, 3000, 0, 22, 20)
        // (The pointer went to b when the leaf went: b is left, the new surface entered.)
        #expect(log.records == [ContextRecord(call: "left", surface: b, output: nil, target: b, router: router),
                                ContextRecord(call: "entered", surface: next, output: nil, target: next, router: router)]
            + walk(to: next))

        // Leaving for a point over b alone: the crossing names the surface left.
        log.records.removeAll()
        seatkit_router_notify_pointer_motion_absolute(router, 4000, 0, 450, 20)
        #expect(log.records.contains(ContextRecord(call: "left", surface: next, output: nil, target: next, router: router)))
        withExtendedLifetime(probes) {}
    }
}
