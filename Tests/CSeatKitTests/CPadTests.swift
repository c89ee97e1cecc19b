import CSeatKitSupport
import Testing

/// What the C delegate heard of pads; `data` points at one.
final class PadCalls {
    var calls: [String] = []
}

private func padCalls(_ data: UnsafeMutableRawPointer?) -> PadCalls {
    Unmanaged<PadCalls>.fromOpaque(data!).takeUnretainedValue()
}

nonisolated(unsafe) private var padDelegate: seatkit_delegate_interface = {
    var impl = seatkit_delegate_interface()
    impl.struct_size = MemoryLayout<seatkit_delegate_interface>.size
    impl.device_added = { data, device, _ in padCalls(data).calls.append("device \(device)") }
    impl.pad_added = { data, device, layout in
        let l = layout!.pointee
        var groups: [String] = []
        for g in UnsafeBufferPointer(start: l.groups, count: l.group_count) {
            let buttons = UnsafeBufferPointer(start: g.buttons, count: g.button_count).map(String.init).joined(separator: ",")
            groups.append("modes \(g.modes) buttons [\(buttons)] rings \(g.ring_count) strips \(g.strip_count)")
        }
        padCalls(data).calls.append("pad \(device): \(l.buttons) \(l.rings) \(l.strips); " + groups.joined(separator: "; "))
    }
    impl.pad_event = { data, e in
        let e = e!.pointee
        let kind = ["button", "ring", "strip", "key"][Int(e.kind.rawValue)]
        padCalls(data).calls.append("\(kind) \(e.index) \(e.value) finger \(e.from_finger) group \(e.group) mode \(e.mode)")
    }
    return impl
}()

/// Decision of the pad filter: consume ring events.
nonisolated(unsafe) private var ringFilter: seatkit_filter_interface = {
    var impl = seatkit_filter_interface()
    impl.struct_size = MemoryLayout<seatkit_filter_interface>.size
    impl.filter = { _, e in
        // Index 1 (code): ring 1 here (no button 1 event is sent).
        e!.pointee.type == SEATKIT_INPUT_TABLET && e!.pointee.code == 1 ? SEATKIT_FILTER_CONSUME : SEATKIT_FILTER_PASS
    }
    return impl
}()

@Suite struct CPadTests {
    private func pad(_ kind: seatkit_pad_event_kind, _ index: UInt32, _ value: Double, group: UInt32 = 0, mode: UInt32 = 0,
                     finger: Bool = false) -> seatkit_pad_event {
        seatkit_pad_event(time_usec: 10, device: 7, kind: kind, index: index, value: value, from_finger: finger, group: group, mode: mode)
    }

    /// A C compositor hears a pad with its layout (pad_added, after device_added) and its
    /// buttons, rings, strips and keys after the filters (pad_event): the delegate members
    /// added after switch_toggled. A filter's consumed ring event is not told; a table
    /// compiled before these members (a smaller struct_size) hears none; bad events are
    /// refused.
    @Test func theDelegateHearsThePadLayoutAndItsEventsAfterTheFilters() {
        let router = seatkit_router_create_virtual(0)!
        defer { seatkit_router_destroy(router) }
        let calls = PadCalls()
        withUnsafePointer(to: &padDelegate) { seatkit_router_set_delegate(router, $0, Unmanaged.passUnretained(calls).toOpaque()) }
        let filter = withUnsafePointer(to: &ringFilter) { seatkit_router_add_filter(router, $0, nil) }
        defer { seatkit_filter_destroy(filter) }

        // Two groups: buttons 0-1 with ring 0 (2 modes), buttons 2-3 with ring 1 and the strip
        // (1 mode); an index past the counts (button 9) is dropped.
        let g0Buttons: [UInt32] = [0, 1, 9], g1Buttons: [UInt32] = [2, 3], ring0: [UInt32] = [0], ring1: [UInt32] = [1], strip: [UInt32] = [0]
        g0Buttons.withUnsafeBufferPointer { b0 in
            g1Buttons.withUnsafeBufferPointer { b1 in
                ring0.withUnsafeBufferPointer { r0 in
                    ring1.withUnsafeBufferPointer { r1 in
                        strip.withUnsafeBufferPointer { s in
                            let groups = [
                                seatkit_pad_group(modes: 2, button_count: 3, buttons: b0.baseAddress, ring_count: 1, rings: r0.baseAddress,
                                                  strip_count: 0, strips: nil),
                                seatkit_pad_group(modes: 1, button_count: 2, buttons: b1.baseAddress, ring_count: 1, rings: r1.baseAddress,
                                                  strip_count: 1, strips: s.baseAddress),
                            ]
                            groups.withUnsafeBufferPointer { g in
                                var layout = seatkit_pad_layout(buttons: 4, rings: 2, strips: 1, group_count: 2, groups: g.baseAddress)
                                "SeatKit C Pad".withCString { name in
                                    var info = seatkit_device_info(name: name, capabilities: 0, width_mm: 0, height_mm: 0, mapped_output: nil)
                                    seatkit_router_notify_pad_added(router, 1, 7, &info, &layout)
                                }
                            }
                        }
                    }
                }
            }
        }
        #expect(seatkit_router_get_capabilities(router) & SEATKIT_DEVICE_TABLET_PAD.rawValue != 0)
        var events = [pad(SEATKIT_PAD_BUTTON, 0, 1, mode: 1), pad(SEATKIT_PAD_BUTTON, 0, 0, mode: 1),
                      pad(SEATKIT_PAD_RING, 0, 90, finger: true), pad(SEATKIT_PAD_RING, 1, 45, group: 1),
                      pad(SEATKIT_PAD_STRIP, 0, 0.5, group: 1), pad(SEATKIT_PAD_STRIP, 0, -1, group: 1, finger: true),
                      pad(SEATKIT_PAD_KEY, 0x100, 1)]
        for i in events.indices { seatkit_router_notify_pad(router, &events[i]) }
        #expect(calls.calls == [
            "device 7",
            "pad 7: 4 2 1; modes 2 buttons [0,1] rings 1 strips 0; modes 1 buttons [2,3] rings 1 strips 1",
            "button 0 1.0 finger false group 0 mode 1", "button 0 0.0 finger false group 0 mode 1",
            "ring 0 90.0 finger true group 0 mode 0",
            "strip 0 0.5 finger false group 1 mode 0", "strip 0 -1.0 finger true group 1 mode 0",
            "key 256 1.0 finger false group 0 mode 0",
        ])

        // Refused: an out-of-range kind, a non-finite value, NULL.
        let before = calls.calls.count
        var bad = pad(seatkit_pad_event_kind(rawValue: 9), 0, 1)
        seatkit_router_notify_pad(router, &bad)
        var nan = pad(SEATKIT_PAD_RING, 0, .nan)
        seatkit_router_notify_pad(router, &nan)
        seatkit_router_notify_pad(router, nil)
        seatkit_router_notify_pad_added(router, 2, 8, nil, nil)
        #expect(calls.calls.count == before)

        // A delegate table built before the pad members hears no pad.
        var old = padDelegate
        old.struct_size = MemoryLayout<seatkit_delegate_interface>.offset(of: \.pad_added)!
        let oldCalls = PadCalls()
        withUnsafePointer(to: &old) { seatkit_router_set_delegate(router, $0, Unmanaged.passUnretained(oldCalls).toOpaque()) }
        var press = pad(SEATKIT_PAD_BUTTON, 0, 1)
        seatkit_router_notify_pad(router, &press)
        #expect(oldCalls.calls.isEmpty)
    }
}
