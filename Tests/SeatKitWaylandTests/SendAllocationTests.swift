import AllocationCounter
import CWaylandServer
import Foundation
import SeatKit
import SeatKitWayland
import Testing

/// Once warm, delivering input to a client allocates nothing on SeatKit's side: the typed
/// senders put their arguments on the stack, and the seat keeps its buffers. libwayland
/// itself allocates a fixed number of blocks per message it marshals (its closure and its
/// serialisation buffer, in 1.21); the test measures that cost on the same display with
/// plain libwayland calls and requires SeatKit's delivery to cost exactly that per message,
/// counting the messages with a protocol logger.
/// In `EmbeddingTests` (serialized): they share its foreign compositor's surface list, which
/// a suite running beside them would read another display's surfaces from.
extension EmbeddingTests {
@Suite struct SendAllocationTests {
    nonisolated(unsafe) static var eventsPosted = 0

    @Test func deliveringPointerTouchAndKeyEventsAllocatesOnlyWhatLibwaylandDoesPerMessage() throws {
        guard seatkit_allocations_are_counted() == 1 else { return }  // a sanitizer owns malloc
        let raw = try #require(wl_display_create())
        defer {
            wl_display_destroy_clients(raw)
            wl_display_destroy(raw)
        }
        var template = Array("/tmp/seatkit-alloc-XXXXXX".utf8CString)
        let directory = try #require(mkdtemp(&template).map { String(cString: $0) })
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(wl_display_add_socket_fd(raw, try EmbeddingTests.listeningSocket(at: directory + "/wayland-alloc")) == 0)
        _ = wl_global_create(raw, wl_compositor_wire(), 4, nil) { client, _, version, id in
            let resource = wl_resource_create(client, wl_compositor_wire(), Int32(version), id)!
            wl_resource_set_implementation(resource, EmbeddingTests.compositorTable, nil, nil)
        }
        EmbeddingTests.ForeignCompositor.surfaces = []
        _ = wl_display_add_protocol_logger(raw, { _, direction, _ in
            if direction == WL_PROTOCOL_LOGGER_EVENT { SendAllocationTests.eventsPosted += 1 }
        }, nil)

        let display = WaylandDisplay(wrapping: raw, socketName: "wayland-alloc")
        let clock = EventLoopClock(eventLoop: display.eventLoop)
        let router = Router(clock: clock)
        let output = Output(name: "ALLOC-1", modeSize: Size(width: 800, height: 600))
        router.addOutput(output)
        let seat = Seat(display: display, router: router)
        for (id, name, capabilities) in [(1, "keyboard", DeviceCapabilities.keyboard), (2, "mouse", .pointer), (3, "touch", .touch)] {
            seat.router.inject(InputEvent(time: clock.now, device: DeviceID(UInt32(id)), .deviceAdded(DeviceInfo(name: name, capabilities: [capabilities]))))
        }
        seat.capabilities = [.keyboard, .pointer, .touch]

        let wire = try WireClient(runtimeDirectory: directory, socket: "wayland-alloc")
        wire.pump = { display.dispatch(timeout: 0) }
        try wire.roundTripRegistry()
        let wlCompositor = try wire.bind("wl_compositor", version: 4)
        let wlSeat = try wire.bind("wl_seat", version: 8)
        let window = wire.newID()
        wire.send(wlCompositor, 0, [window])
        let pointer = wire.newID(), keyboard = wire.newID(), touch = wire.newID()
        wire.send(wlSeat, 0, [pointer])
        wire.send(wlSeat, 1, [keyboard])
        wire.send(wlSeat, 2, [touch])
        #expect(wire.sync())
        let surface = try #require(EmbeddingTests.ForeignCompositor.surfaces.first)
        let node = Surface(name: "window", frame: SurfaceRect(x: 0, y: 0, width: 400, height: 300),
                           responder: ClientSurfaceResponder(seat: seat, surfaceResource: surface))
        output.root.addChild(node)
        #expect(router.becomeFirstResponder(node))

        // libwayland's own cost per message, with nothing of SeatKit's in the way.
        let pointerResource = try #require(wl_client_get_object(wl_resource_get_client(surface), pointer))
        var args = (wl_argument(u: 1), wl_argument(f: 256), wl_argument(f: 512))
        let rawMessages = 20
        var rawBefore: UInt64 = 0
        for pass in 0..<2 {  // the first pass warms libwayland up
            rawBefore = seatkit_thread_allocations()
            for _ in 0..<(pass == 0 ? 1 : rawMessages) {
                withUnsafeMutableBytes(of: &args) {
                    wl_resource_post_event_array(pointerResource, UInt32(WL_POINTER_MOTION),
                                                 $0.baseAddress!.assumingMemoryBound(to: wl_argument.self))
                }
                wl_resource_post_event_array(pointerResource, UInt32(WL_POINTER_FRAME), nil)
            }
        }
        let rawCost = seatkit_thread_allocations() - rawBefore
        let perMessage = rawCost / UInt64(2 * rawMessages)
        #expect(rawCost % UInt64(2 * rawMessages) == 0, "libwayland: \(rawCost) allocations for \(2 * rawMessages) messages")
        #expect(wire.sync())

        // One round: motion (two positions), a click, a wheel step, a touch down, motion and
        // up (each with its frame), a key pressed and released.
        var t: Int64 = 1_000
        func event(_ device: UInt32, _ kind: InputEvent.Kind) -> InputEvent {
            t += 1_000
            return InputEvent(time: Timestamp(microseconds: t), device: DeviceID(device), kind)
        }
        var round: [InputEvent] = []
        func makeRound(_ i: Int) {
            round.removeAll(keepingCapacity: true)
            let d = Double(i % 50)
            round.append(event(2, .pointerMotionAbsolute(LayoutPoint(x: 10 + d, y: 20))))
            round.append(event(2, .pointerMotion(delta: Vector(dx: 1.5, dy: 0.5), unaccelerated: Vector(dx: 1.5, dy: 0.5))))
            round.append(event(2, .pointerButton(button: 0x110, state: .pressed)))
            round.append(event(2, .pointerButton(button: 0x110, state: .released)))
            round.append(event(2, .pointerAxis(AxisMotion(source: .wheel, vertical: 15, verticalV120: 120))))
            round.append(event(3, .touchDown(TouchID(0), LayoutPoint(x: 100, y: 100 + d))))
            round.append(event(3, .touchFrame))
            round.append(event(3, .touchMotion(TouchID(0), LayoutPoint(x: 110, y: 105 + d))))
            round.append(event(3, .touchFrame))
            round.append(event(3, .touchUp(TouchID(0))))
            round.append(event(3, .touchFrame))
            round.append(event(1, .key(keycode: 30, state: .pressed)))
            round.append(event(1, .key(keycode: 30, state: .released)))
        }

        var allocations: UInt64 = 0
        var messages = 0
        for i in 0..<60 {
            makeRound(i)
            let posted = Self.eventsPosted
            let before = seatkit_thread_allocations()
            // An index loop: in a debug build `for e in round` allocates per element itself.
            var k = 0
            while k < round.count {
                seat.router.inject(round[k])
                k += 1
            }
            let cost = seatkit_thread_allocations() - before
            let sent = Self.eventsPosted - posted
            if i >= 10 {  // warm
                allocations += cost
                messages += sent
            }
            #expect(wire.sync())  // the client reads everything: the socket never fills
        }
        // Every round reached the client: motion, button, axis, touch and key messages.
        #expect(messages == 50 * 20, "only \(messages) messages in 50 rounds")
        #expect(perMessage > 0)
        #expect(allocations == UInt64(messages) * perMessage,
                "\(allocations) allocations for \(messages) messages; libwayland alone makes \(perMessage) per message")
        withExtendedLifetime((display, seat, node)) {}
    }
}
}
