import CSeatKitSupport
import SeededRandom
import Testing

/// Coordinates for the fuzzer: mostly in range, sometimes NaN, infinite or negative.
private extension SplitMix64 {
    mutating func coordinate() -> Double {
        switch below(8) {
        case 0: return .nan
        case 1: return -.infinity
        case 2: return -50
        default: return Double(below(900))
        }
    }
}

nonisolated(unsafe) private var fuzzResponder: seatkit_responder_interface = {
    var impl = seatkit_responder_interface()
    impl.struct_size = MemoryLayout<seatkit_responder_interface>.size
    impl.touches_began = { _, _, _ in SEATKIT_HANDLED }
    impl.key_down = { _, _, _ in seatkit_result(rawValue: 7) }  // out of range: counts as handled
    impl.can_become_first_responder = { _ in true }
    return impl
}()

/// Random API calls with random handles (live, destroyed, of the wrong kind, NULL, made up)
/// and random values (negative, NaN, infinite, out of range): whatever C does, the library
/// refuses and logs, and never traps. Reaching the end of the run is the test (with the surfaces, outputs and recognizers it made really
/// used: the counts are checked).
extension TheProcessWideCLog {
    @Suite struct MisuseFuzzTests {
        @Test func fiftyThousandRandomCallsNeverTrap() {
            seatkit_log_init(SEATKIT_SILENT, nil)
            defer { seatkit_log_init(SEATKIT_ERROR, nil) }
            var random = SplitMix64(seed: 13)
            var routers: [OpaquePointer?] = [nil, OpaquePointer(bitPattern: 0x1234_5678)]
            var surfaces: [OpaquePointer?] = [nil]
            var outputs: [OpaquePointer?] = [nil]
            var recognizers: [OpaquePointer?] = [nil]
            func pick(_ list: [OpaquePointer?]) -> OpaquePointer? { list[random.below(list.count)] }
            func any() -> OpaquePointer? { pick([pick(routers), pick(surfaces), pick(outputs), pick(recognizers)]) }

            for step in 0..<50_000 {
                let t = Int64(step) * 1000
                switch random.below(24) {
                case 0: routers.append(seatkit_router_create_virtual(t))
                case 1: seatkit_router_destroy(random.below(4) == 0 ? any() : pick(routers))
                case 2: outputs.append(seatkit_output_create(pick(routers), "out", random.coordinate(), random.coordinate(),
                                                             Int32(random.below(2000)) - 100, 600,
                                                             seatkit_output_transform(rawValue: UInt32(random.below(10))),
                                                             random.coordinate() / 100))
                case 3: seatkit_output_destroy(random.below(3) == 0 ? any() : pick(outputs))
                case 4: surfaces.append(seatkit_surface_create(pick(routers), nil, random.coordinate(), random.coordinate(),
                                                               random.coordinate(), random.coordinate()))
                case 5: surfaces.append(seatkit_output_get_root(pick(outputs)))
                case 6: _ = seatkit_surface_add_child(pick(surfaces), random.below(5) == 0 ? any() : pick(surfaces))
                case 7: seatkit_surface_destroy(pick(surfaces))
                case 8: seatkit_surface_remove_from_parent(pick(surfaces))
                case 9: seatkit_surface_set_frame(pick(surfaces), random.coordinate(), random.coordinate(),
                                                  random.coordinate(), random.coordinate())
                case 10:
                    withUnsafePointer(to: &fuzzResponder) { seatkit_surface_set_responder(pick(surfaces), $0, nil) }
                case 11: seatkit_router_notify_touch_down(pick(routers), t, 1, Int32(random.below(4)), random.coordinate(), random.coordinate())
                case 12: seatkit_router_notify_touch_motion(pick(routers), t, 1, Int32(random.below(4)), random.coordinate(), random.coordinate())
                case 13: seatkit_router_notify_touch_up(pick(routers), t, 1, Int32(random.below(4)))
                case 14: seatkit_router_notify_touch_frame(pick(routers), t, 1)
                case 15: seatkit_router_notify_key(pick(routers), t, 2, UInt32(random.below(300)),
                                                   seatkit_key_state(rawValue: UInt32(random.below(4))))
                case 16: _ = seatkit_router_set_first_responder(pick(routers), pick(surfaces))
                case 17:
                    let r: OpaquePointer?
                    switch random.below(4) {
                    case 0: r = seatkit_recognizer_create_tap(pick(routers), nil, UInt32(random.below(3)), 1)
                    case 1: r = seatkit_recognizer_create_long_press(pick(routers), nil, Int64(random.below(3)) * 100_000 - 100_000, 1)
                    case 2: r = seatkit_recognizer_create_pan(pick(routers), nil, UInt32(random.below(3)), UInt32(random.below(3)))
                    default: r = seatkit_recognizer_create_swipe(pick(routers), nil, UInt32(random.below(40)), 1)
                    }
                    recognizers.append(r)
                case 18: _ = seatkit_surface_add_recognizer(pick(surfaces), pick(recognizers))
                case 19: _ = seatkit_recognizer_require_to_fail(pick(recognizers), pick(recognizers))
                case 20: _ = seatkit_recognizer_set_simultaneous(pick(recognizers), random.below(4) == 0 ? any() : pick(recognizers), true)
                case 21: seatkit_recognizer_destroy(pick(recognizers))
                case 22: seatkit_router_advance_clock(pick(routers), t)
                default:
                    var rect = seatkit_rect(x: random.coordinate(), y: random.coordinate(), width: random.coordinate(), height: random.coordinate())
                    let surface = pick(surfaces), count = random.below(3)
                    if random.below(4) == 0 {
                        seatkit_surface_set_input_region(surface, nil, count)
                    } else {
                        seatkit_surface_set_input_region(surface, &rect, min(count, 1))
                    }
                }
            }
            let liveSurfaces = surfaces.filter { seatkit_surface_get_id($0) != 0 }.count
            let attached = surfaces.filter { seatkit_surface_is_attached($0) }.count
            #expect(liveSurfaces > 100 && attached > 10, "the run made and attached surfaces: \(liveSurfaces), \(attached)")
            for router in routers { seatkit_router_destroy(router) }
            // Every handle is dead now: each call is refused.
            for surface in surfaces { #expect(seatkit_surface_get_id(surface) == 0) }
        }
    }
}
