import CWaylandServer
import Foundation
import SeatKit
import SeatKitWayland
import Testing

/// What a real `wl_keyboard` and `wl_pointer` client reads when a keyboard grab starts and
/// ends, a key filter moves focus, or a pointer grab ends, while it holds keys or a button
/// (issue 23, items 1, 3 and 4): every key or button it was sent pressed is sent released or
/// ended by a leave, and no release comes without its press.
/// In `EmbeddingTests` (serialized): they share its foreign compositor's surface list.
extension EmbeddingTests {
    /// A display owned by the test, a seat on it, and one wire client with a wl_keyboard, a
    /// wl_pointer and `windows` surfaces, each a node of the tree with SeatKit's client
    /// responder (side by side, 300 apart, 200 x 200).
    final class InProcessSeatClient {
        let raw: OpaquePointer
        let directory: String
        // Dropped by `close()` in order, before the display they use is destroyed.
        private(set) var display: WaylandDisplay!
        private(set) var clock: EventLoopClock!
        private(set) var router: Router!
        private(set) var seat: Seat!
        let wire: WireClient
        let keyboard: UInt32
        let pointer: UInt32
        /// The client's wl_touch, when made with `touch: true`.
        let touch: UInt32?
        var nodes: [Surface] = []
        var wireSurfaces: [UInt32] = []
        private var time: Int64 = 1_000

        init(windows: Int, touch withTouch: Bool = false) throws {
            raw = try #require(wl_display_create())
            var template = Array("/tmp/seatkit-kbgrab-XXXXXX".utf8CString)
            directory = try #require(mkdtemp(&template).map { String(cString: $0) })
            #expect(wl_display_add_socket_fd(raw, try EmbeddingTests.listeningSocket(at: directory + "/wayland-kb")) == 0)
            _ = wl_global_create(raw, wl_compositor_wire(), 4, nil) { client, _, version, id in
                let resource = wl_resource_create(client, wl_compositor_wire(), Int32(version), id)!
                wl_resource_set_implementation(resource, EmbeddingTests.compositorTable, nil, nil)
            }
            EmbeddingTests.ForeignCompositor.surfaces = []
            display = WaylandDisplay(wrapping: raw, socketName: "wayland-kb")
            clock = EventLoopClock(eventLoop: display.eventLoop)
            router = Router(clock: clock)
            let output = Output(name: "KB-1", modeSize: Size(width: 800, height: 600))
            router.addOutput(output)
            seat = Seat(display: display, router: router)
            seat.router.inject(InputEvent(time: clock.now, device: DeviceID(1), .deviceAdded(DeviceInfo(name: "keyboard", capabilities: [.keyboard]))))
            seat.router.inject(InputEvent(time: clock.now, device: DeviceID(2), .deviceAdded(DeviceInfo(name: "mouse", capabilities: [.pointer]))))
            seat.capabilities = [.keyboard, .pointer]
            if withTouch {
                seat.router.inject(InputEvent(time: clock.now, device: DeviceID(3), .deviceAdded(DeviceInfo(name: "panel", capabilities: [.touch]))))
                seat.capabilities = [.keyboard, .pointer, .touch]
            }

            wire = try WireClient(runtimeDirectory: directory, socket: "wayland-kb")
            let display = display!
            wire.pump = { display.dispatch(timeout: 0) }
            try wire.roundTripRegistry()
            let wlCompositor = try wire.bind("wl_compositor", version: 4)
            let wlSeat = try wire.bind("wl_seat", version: 8)
            for _ in 0..<windows {
                let id = wire.newID()
                wire.send(wlCompositor, 0, [id])  // create_surface
                wireSurfaces.append(id)
            }
            keyboard = wire.getKeyboard(wlSeat)
            pointer = wire.getPointer(wlSeat)
            touch = withTouch ? wire.getTouch(wlSeat) : nil
            #expect(wire.sync())
            try #require(EmbeddingTests.ForeignCompositor.surfaces.count == windows)
            for (i, resource) in EmbeddingTests.ForeignCompositor.surfaces.enumerated() {
                let node = Surface(name: "window\(i)", frame: SurfaceRect(x: Double(i) * 300, y: 0, width: 200, height: 200),
                                   responder: ClientSurfaceResponder(seat: seat, surfaceResource: resource))
                output.root.addChild(node)
                nodes.append(node)
            }
        }

        func close() {
            nodes.forEach { $0.removeFromParent() }
            nodes = []
            wire.pump = nil
            wl_display_destroy_clients(raw)
            seat = nil
            router = nil
            clock = nil
            display = nil
            wl_display_destroy(raw)
            try? FileManager.default.removeItem(atPath: directory)
        }

        func key(_ keycode: UInt32, _ state: KeyState) { inject(.key(keycode: keycode, state: state), device: 1) }
        func pointer(to x: Double, _ y: Double) { inject(.pointerMotionAbsolute(LayoutPoint(x: x, y: y)), device: 2) }
        func button(_ state: ButtonState) { inject(.pointerButton(button: 0x110, state: state), device: 2) }
        func touch(_ kind: InputEvent.Kind) { inject(kind, device: 3) }

        private func inject(_ kind: InputEvent.Kind, device: UInt32) {
            time += 1_000
            seat.router.inject(InputEvent(time: Timestamp(microseconds: time), device: DeviceID(device), kind))
        }

        /// What the client's wl_pointer was sent since the last call: "enter window0",
        /// "leave window0", "down", "up" (motion, axis and frames left out).
        func pointerEvents() -> [String] {
            events(of: pointer) { message in
                switch message.opcode {
                case 0: return "enter \(name(message.uint(at: 1)))"
                case 1: return "leave \(name(message.uint(at: 1)))"
                case 3: return message.uint(at: 3) == 1 ? "down" : "up"
                default: return nil
                }
            }
        }

        private func name(_ surface: UInt32) -> String { "window\(wireSurfaces.firstIndex(of: surface) ?? -1)" }

        /// The messages to `object` since the last call, as `describe` names them.
        private func events(of object: UInt32, _ describe: (WireClient.Message) -> String?) -> [String] {
            var events: [String] = []
            let callback = wire.newID()
            wire.send(1, 0, [callback])  // wl_display.sync: everything before it has been read
            _ = wire.read(until: { message in
                if message.object == object, let event = describe(message) { events.append(event) }
                return message.object == callback
            })
            return events
        }

        /// The client's wl_touch messages since the last call, each as its opcode and its
        /// body's 32-bit words, for tests that read every argument (serials, times).
        func touchMessages() -> [(opcode: UInt16, words: [UInt32])] {
            guard let touch else { return [] }
            var messages: [(opcode: UInt16, words: [UInt32])] = []
            _ = events(of: touch) { message in
                messages.append((message.opcode, (0..<(message.body.count / 4)).map { message.uint(at: $0) }))
                return nil
            }
            return messages
        }

        /// What the client's wl_touch was sent since the last call, in order: "down window0 3
        /// 50,40" (ID, surface-local point), "motion 3 30,40", "up 3", "frame", "cancel".
        func touchEvents() -> [String] {
            guard let touch else { return [] }
            return events(of: touch, describeTouch)
        }

        /// As ``touchEvents()``, for each of `touches` (wl_touch objects of the client), read
        /// together: each object's messages since the last read, in order.
        func touchEvents(of touches: [UInt32]) -> [[String]] {
            var events = Array(repeating: [String](), count: touches.count)
            let callback = wire.newID()
            wire.send(1, 0, [callback])  // wl_display.sync: everything before it has been read
            _ = wire.read(until: { message in
                if let index = touches.firstIndex(of: message.object), let event = describeTouch(message) {
                    events[index].append(event)
                }
                return message.object == callback
            })
            return events
        }

        private func describeTouch(_ message: WireClient.Message) -> String? {
            func fixed(_ word: UInt32) -> String {
                let value = Double(Int32(bitPattern: word)) / 256
                return value == value.rounded() ? String(Int(value)) : String(value)
            }
            switch message.opcode {
            case 0:  // down(serial, time, surface, id, x, y)
                return "down \(name(message.uint(at: 2))) \(Int32(bitPattern: message.uint(at: 3))) \(fixed(message.uint(at: 4))),\(fixed(message.uint(at: 5)))"
            case 1: return "up \(Int32(bitPattern: message.uint(at: 2)))"  // up(serial, time, id)
            case 2:  // motion(time, id, x, y)
                return "motion \(Int32(bitPattern: message.uint(at: 1))) \(fixed(message.uint(at: 2))),\(fixed(message.uint(at: 3)))"
            case 3: return "frame"
            case 4: return "cancel"
            default: return nil
            }
        }

        /// What the client's wl_keyboard was sent since the last call, in order: "enter
        /// window0 [56]", "leave window0", "down 30", "up 30" (keymap, modifiers and repeat
        /// info left out).
        func keyboardEvents() -> [String] {
            events(of: keyboard) { message in
                switch message.opcode {
                case 1:  // enter(serial, surface, keys)
                    let count = Int(message.uint(at: 2)) / 4
                    return "enter \(name(message.uint(at: 1))) \((0..<count).map { message.uint(at: 3 + $0) })"
                case 2: return "leave \(name(message.uint(at: 1)))"
                case 3: return "\(message.uint(at: 3) == 1 ? "down" : "up") \(message.uint(at: 2))"
                default: return nil
                }
            }
        }
    }

    @Test func aKeyboardGrabThatKeepsFocusSendsTheClientTheReleaseOfTheKeyItHolds() throws {
        let client = try InProcessSeatClient(windows: 1)
        defer { client.close() }
        #expect(client.router.becomeFirstResponder(client.nodes[0]))
        client.key(30, .pressed)
        #expect(client.keyboardEvents() == ["enter window0 []", "down 30"])

        let lock = GrabThatKeepsKeys()
        client.router.startKeyboardGrab(lock, focus: .keep)
        // Released at once, with no leave: the client stops repeating 30.
        #expect(client.keyboardEvents() == ["up 30"])
        client.key(31, .pressed)
        client.key(30, .released)
        client.router.endKeyboardGrab()
        client.key(31, .released)
        client.key(32, .pressed)
        client.key(32, .released)
        // Nothing of the grab's keys, no second release of 30, and the app's next key whole.
        #expect(client.keyboardEvents() == ["down 32", "up 32"])
    }

    @Test func aKeyboardGrabThatClearsFocusEndsTheClientsKeysWithALeaveAndEntersAgainWithNoneHeld() throws {
        let client = try InProcessSeatClient(windows: 1)
        defer { client.close() }
        #expect(client.router.becomeFirstResponder(client.nodes[0]))
        client.key(30, .pressed)
        #expect(client.keyboardEvents() == ["enter window0 []", "down 30"])

        client.router.startKeyboardGrab(GrabThatKeepsKeys(), focus: .clear)
        #expect(client.keyboardEvents() == ["leave window0"])
        client.key(31, .pressed)
        client.router.endKeyboardGrab()
        // 30 and 31 are still down, but neither is the client's: the enter lists none.
        client.key(30, .released)
        client.key(31, .released)
        #expect(client.keyboardEvents() == ["enter window0 []"])
    }

    @Test func anAltTabFilterThatMovesFocusEntersTheNewWindowWithoutTabAndReleasesAltThere() throws {
        let client = try InProcessSeatClient(windows: 2)
        defer { client.close() }
        #expect(client.router.becomeFirstResponder(client.nodes[0]))
        client.router.addFilter(TabSwitcher(to: client.nodes[1]))
        client.key(56, .pressed)   // Alt
        client.key(15, .pressed)   // Tab: the filter moves focus and takes it
        client.key(15, .released)
        client.key(56, .released)
        #expect(client.keyboardEvents() == ["enter window0 []", "down 56", "leave window0", "enter window1 [56]", "up 56"])
    }

    @Test func aPointerGrabEndingWithTheButtonDownSendsItsReleaseToNoWindowThatDidNotSeeThePress() throws {
        let client = try InProcessSeatClient(windows: 2)
        defer { client.close() }
        client.pointer(to: 100, 100)
        client.button(.pressed)
        #expect(client.pointerEvents() == ["enter window0", "down"])
        // A drag: the grab takes the pointer (window0 is left: its button is up for it) and
        // moves focus to window1, then ends with the button still down.
        client.router.startPointerGrab(DragOverWindows())
        client.pointer(to: 400, 100)
        client.router.endPointerGrab()
        client.button(.released)
        #expect(client.pointerEvents() == ["leave window0", "enter window1"])
        // The next click is window1's, press and release.
        client.button(.pressed)
        client.button(.released)
        #expect(client.pointerEvents() == ["down", "up"])
    }
}

/// A pointer grab whose focus follows the pointer, taking buttons (a drag over drop targets).
private final class DragOverWindows: PointerGrab {
    func pointerMoved(_ event: PointerMotionEvent, router: Router) {
        router.setPointerFocus(router.surface(at: event.location), time: event.time)
    }
    func pointerButton(_ event: PointerButtonEvent, router: Router) {}
}

/// A keyboard grab that forwards nothing (a lock screen's keys are its own).
private final class GrabThatKeepsKeys: KeyboardGrab {
    func key(_ event: KeyEvent, router: Router) {}
}

/// Alt+Tab: Tab's press moves focus to `target` and is taken.
private final class TabSwitcher: InputFilter {
    let target: Surface
    init(to target: Surface) { self.target = target }
    func filterKey(_ event: KeyEvent, router: Router) -> FilterDecision {
        guard event.keycode == 15 else { return .pass }
        if event.state == .pressed { router.becomeFirstResponder(target) }
        return .consume
    }
}
