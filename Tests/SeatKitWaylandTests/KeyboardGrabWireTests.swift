import CWaylandServer
import Foundation
import SeatKit
import SeatKitWayland
import Testing

/// What a real `wl_keyboard` client reads when a keyboard grab starts and ends, or a key
/// filter moves focus, while it holds keys (issue 23, items 1 and 4): every key it was sent
/// pressed is sent released or ended by a leave, and no release comes without its press.
/// In `EmbeddingTests` (serialized): they share its foreign compositor's surface list.
extension EmbeddingTests {
    /// A display owned by the test, a seat on it, and one wire client with a wl_keyboard and
    /// `windows` surfaces, each a node of the tree with SeatKit's client responder.
    final class KeyboardClient {
        let raw: OpaquePointer
        let directory: String
        // Dropped by `close()` in order, before the display they use is destroyed.
        private(set) var display: WaylandDisplay!
        private(set) var clock: EventLoopClock!
        private(set) var router: Router!
        private(set) var seat: Seat!
        let wire: WireClient
        let keyboard: UInt32
        var nodes: [Surface] = []
        var wireSurfaces: [UInt32] = []
        private var time: Int64 = 1_000

        init(windows: Int) throws {
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
            seat.inject(InputEvent(time: clock.now, device: DeviceID(1), .deviceAdded(DeviceInfo(name: "keyboard", capabilities: [.keyboard]))))
            seat.capabilities = [.keyboard]

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

        func key(_ keycode: UInt32, _ state: KeyState) {
            time += 1_000
            seat.inject(InputEvent(time: Timestamp(microseconds: time), device: DeviceID(1), .key(keycode: keycode, state: state)))
        }

        /// What the client's wl_keyboard was sent since the last call, in order: "enter
        /// window0 [56]", "leave window0", "down 30", "up 30" (keymap, modifiers and repeat
        /// info left out).
        func keyboardEvents() -> [String] {
            var events: [String] = []
            let callback = wire.newID()
            wire.send(1, 0, [callback])  // wl_display.sync: everything before it has been read
            _ = wire.read(until: { message in
                if message.object == keyboard {
                    let name = { (id: UInt32) in "window\(self.wireSurfaces.firstIndex(of: id) ?? -1)" }
                    switch message.opcode {
                    case 1:  // enter(serial, surface, keys)
                        let count = Int(message.uint(at: 2)) / 4
                        events.append("enter \(name(message.uint(at: 1))) \((0..<count).map { message.uint(at: 3 + $0) })")
                    case 2: events.append("leave \(name(message.uint(at: 1)))")
                    case 3: events.append("\(message.uint(at: 3) == 1 ? "down" : "up") \(message.uint(at: 2))")
                    default: break
                    }
                }
                return message.object == callback
            })
            return events
        }
    }

    @Test func aKeyboardGrabThatKeepsFocusSendsTheClientTheReleaseOfTheKeyItHolds() throws {
        let client = try KeyboardClient(windows: 1)
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
        let client = try KeyboardClient(windows: 1)
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
        let client = try KeyboardClient(windows: 2)
        defer { client.close() }
        #expect(client.router.becomeFirstResponder(client.nodes[0]))
        client.router.addFilter(TabSwitcher(to: client.nodes[1]))
        client.key(56, .pressed)   // Alt
        client.key(15, .pressed)   // Tab: the filter moves focus and takes it
        client.key(15, .released)
        client.key(56, .released)
        #expect(client.keyboardEvents() == ["enter window0 []", "down 56", "leave window0", "enter window1 [56]", "up 56"])
    }
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
