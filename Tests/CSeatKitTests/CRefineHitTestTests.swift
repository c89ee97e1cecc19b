import CSeatKitSupport
import Testing

/// Whether the last refine answered no, and how many times it was asked.
private final class RefineProbe {
    var refuses = false
    var asked = 0
    var moved = 0
}

nonisolated(unsafe) private var movedOnly: seatkit_responder_interface = {
    var impl = seatkit_responder_interface()
    impl.struct_size = MemoryLayout<seatkit_responder_interface>.size
    impl.pointer_moved = { data, _, _ in
        Unmanaged<RefineProbe>.fromOpaque(data!).takeUnretainedValue().moved += 1
        return SEATKIT_HANDLED
    }
    return impl
}()

nonisolated(unsafe) private var refining: seatkit_responder_interface = {
    var impl = movedOnly
    impl.refine_hit_test = { data, _, _ in
        let probe = Unmanaged<RefineProbe>.fromOpaque(data!).takeUnretainedValue()
        probe.asked += 1
        return !probe.refuses
    }
    return impl
}()

/// A C responder without `refine_hit_test` accepts every point as the core's default does (and
/// the core stops asking it); given a table with one later, its surface asks it from then on,
/// and without one again, accepts again.
struct CRefineHitTestTests {
    @Test func aTableThatGainsOrLosesRefineHitTestIsAskedFromThenOn() {
        let router = seatkit_router_create_virtual(0)!
        defer { seatkit_router_destroy(router) }
        let output = seatkit_output_create(router, "OUT-1", 0, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)!
        let parent = seatkit_surface_create(router, "parent", 0, 0, 400, 400)!
        let child = seatkit_surface_create(router, "child", 0, 0, 200, 200)!
        let parentProbe = RefineProbe(), childProbe = RefineProbe()
        withUnsafePointer(to: &movedOnly) {
            seatkit_surface_set_responder(parent, $0, Unmanaged.passUnretained(parentProbe).toOpaque())
            seatkit_surface_set_responder(child, $0, Unmanaged.passUnretained(childProbe).toOpaque())
        }
        #expect(seatkit_surface_add_child(seatkit_output_get_root(output)!, parent))
        #expect(seatkit_surface_add_child(parent, child))
        var time: Int64 = 0
        func move(_ x: Double) {
            time += 1000
            seatkit_router_notify_pointer_motion_absolute(router, time, 0, x, 20)
        }

        // No refine in the table: the child takes the motions.
        move(20); move(21)
        #expect(childProbe.moved == 2 && parentProbe.moved == 0)

        // A table with a refine that refuses: the child is asked and the parent gets the motion.
        childProbe.refuses = true
        withUnsafePointer(to: &refining) {
            seatkit_surface_set_responder(child, $0, Unmanaged.passUnretained(childProbe).toOpaque())
        }
        move(22)
        #expect(childProbe.asked >= 1, "a refine added to the table was never asked")
        #expect(childProbe.moved == 2 && parentProbe.moved == 1)

        // It accepts again: the child has the motions back.
        childProbe.refuses = false
        move(23)
        #expect(childProbe.moved == 3 && parentProbe.moved == 1)

        // The refine taken out of the table again: every point accepted, the refine never asked.
        childProbe.refuses = true
        let asked = childProbe.asked
        withUnsafePointer(to: &movedOnly) {
            seatkit_surface_set_responder(child, $0, Unmanaged.passUnretained(childProbe).toOpaque())
        }
        move(24); move(25)
        #expect(childProbe.moved == 5 && parentProbe.moved == 1 && childProbe.asked == asked)
    }
}
