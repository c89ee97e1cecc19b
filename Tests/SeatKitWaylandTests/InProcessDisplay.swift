import CWaylandServer
import Foundation
import SeatKit
import SeatKitWayland
import SeatKitXKB
import Testing

extension EmbeddingTests {
    /// A display owned by the test with a seat on it (and the test's plain wl_compositor,
    /// `ForeignCompositor`), to which any number of wire clients connect; each waits by
    /// dispatching the display, so the test decides the order in which the compositor sees
    /// every client's requests: races are driven, not waited for.
    /// In `EmbeddingTests` (serialized): they share its foreign compositor's surface list.
    final class InProcessDisplay {
        let raw: OpaquePointer
        let directory: String
        // Dropped by `close()` in order, before the display they use is destroyed.
        private(set) var display: WaylandDisplay!
        private(set) var router: Router!
        private(set) var seat: Seat!
        private(set) var keyboard: Keyboard?
        let output: Output
        private var clients: [WireClient] = []
        private var time: Int64 = 1_000

        /// `hardware`: the devices plugged in (a keyboard is device 1, a mouse device 2);
        /// with a keyboard, the seat's keymap is xkbcommon's "us".
        /// `virtualClock`: the router's clock, which only the test moves (a new one at zero
        /// if none is given). Never the display's own clock: the keyboard's auto-repeat runs
        /// on the router's clock, so with real time a key held across a slow step (a loaded
        /// machine) repeated into whoever had the keyboard next (a lock screen once got an
        /// extra press of S).
        init(hardware: DeviceCapabilities, extensions: SeatExtensions, virtualClock: VirtualClock = VirtualClock()) throws {
            raw = try #require(wl_display_create())
            var template = Array("/tmp/seatkit-inproc-XXXXXX".utf8CString)
            directory = try #require(mkdtemp(&template).map { String(cString: $0) })
            #expect(wl_display_add_socket_fd(raw, try EmbeddingTests.listeningSocket(at: directory + "/wayland-ip")) == 0)
            _ = wl_global_create(raw, wl_compositor_wire(), 4, nil) { client, _, version, id in
                let resource = wl_resource_create(client, wl_compositor_wire(), Int32(version), id)!
                wl_resource_set_implementation(resource, EmbeddingTests.compositorTable, nil, nil)
            }
            EmbeddingTests.ForeignCompositor.surfaces = []
            display = WaylandDisplay(wrapping: raw, socketName: "wayland-ip")
            router = Router(clock: virtualClock)
            output = Output(name: "IP-1", modeSize: Size(width: 800, height: 600))
            router.addOutput(output)
            if hardware.contains(.keyboard) {
                let keyboard = Keyboard(keymap: try Keymap(names: KeymapNames(layout: "us")))
                keyboard.attach(to: router)
                self.keyboard = keyboard
            }
            seat = Seat(display: display, router: router, keymap: keyboard, extensions: extensions)
            if hardware.contains(.keyboard) {
                seat.router.inject(InputEvent(time: virtualClock.now, device: DeviceID(1), .deviceAdded(DeviceInfo(name: "keyboard", capabilities: [.keyboard]))))
            }
            if hardware.contains(.pointer) {
                seat.router.inject(InputEvent(time: virtualClock.now, device: DeviceID(2), .deviceAdded(DeviceInfo(name: "mouse", capabilities: [.pointer]))))
            }
            seat.capabilities = hardware
        }

        /// A new wire client that has read the registry.
        func connect() throws -> WireClient {
            let wire = try WireClient(runtimeDirectory: directory, socket: "wayland-ip")
            let display = display!
            wire.pump = { display.dispatch(timeout: 0) }
            try wire.roundTripRegistry()
            clients.append(wire)
            return wire
        }

        /// A wl_surface of `wire`, shown at `frame` (layout coordinates) with SeatKit's client
        /// responder: returns its node and the client's id for it.
        func window(of wire: WireClient, frame: SurfaceRect) throws -> (node: Surface, id: UInt32) {
            let compositor = try wire.bind("wl_compositor", version: 4)
            let id = wire.newID()
            wire.send(compositor, 0, [id])  // create_surface
            let before = EmbeddingTests.ForeignCompositor.surfaces.count
            #expect(wire.sync())
            try #require(EmbeddingTests.ForeignCompositor.surfaces.count == before + 1)
            let resource = EmbeddingTests.ForeignCompositor.surfaces[before]
            let node = Surface(name: "window\(before)", frame: frame, responder: ClientSurfaceResponder(seat: seat, surfaceResource: resource))
            output.root.addChild(node)
            return (node, id)
        }

        func key(_ keycode: UInt32, _ state: KeyState) { inject(.key(keycode: keycode, state: state), device: 1) }
        func pointer(to x: Double, _ y: Double) { inject(.pointerMotionAbsolute(LayoutPoint(x: x, y: y)), device: 2) }
        func button(_ state: ButtonState) { inject(.pointerButton(button: 0x110, state: state), device: 2) }

        private func inject(_ kind: InputEvent.Kind, device: UInt32) {
            time += 1_000
            seat.router.inject(InputEvent(time: Timestamp(microseconds: time), device: DeviceID(device), kind))
        }

        func close() {
            output.root.children.forEach { $0.removeFromParent() }
            for wire in clients { wire.pump = nil }
            clients = []
            wl_display_destroy_clients(raw)
            keyboard = nil
            seat = nil
            router = nil
            display = nil
            wl_display_destroy(raw)
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}

extension WireClient {
    /// The messages to the objects of `names` since the last call, in order, as `describe`
    /// puts them (nil leaves one out), after a wl_display.sync: everything the compositor
    /// sent before it has been read.
    func drain(_ describe: (Message) -> String?) -> [String] {
        var events: [String] = []
        let callback = newID()
        send(1, 0, [callback])  // wl_display.sync
        _ = read(until: { message in
            if message.object == callback { return true }
            if let event = describe(message) { events.append(event) }
            return false
        })
        return events
    }

    /// A wl_keyboard's (or an input method's keyboard grab's: the same opcodes but enter and
    /// leave) events, named: "keymap 1", "enter 5 [30]", "leave 5", "down 30", "up 30",
    /// "modifiers 1 0 0 0", "repeat".
    static func keyboardEvent(_ message: Message, grab: Bool = false) -> String {
        switch (grab, message.opcode) {
        case (_, 0): return "keymap \(message.uint(at: 0))"
        case (false, 1):
            let count = Int(message.uint(at: 2)) / 4
            return "enter \(message.uint(at: 1)) \((0..<count).map { message.uint(at: 3 + $0) })"
        case (false, 2): return "leave \(message.uint(at: 1))"
        case (false, 3), (true, 1): return "\(message.uint(at: 3) == 1 ? "down" : "up") \(message.uint(at: 2))"
        case (false, 4), (true, 2):
            return "modifiers \(message.uint(at: 1)) \(message.uint(at: 2)) \(message.uint(at: 3)) \(message.uint(at: 4))"
        default: return "repeat"
        }
    }

    /// Creates a zwp_virtual_keyboard_v1 on `seat` and uploads `keymap`: returns its id.
    func virtualKeyboard(seat: UInt32, keymap: String) throws -> UInt32 {
        let manager = try bind("zwp_virtual_keyboard_manager_v1", version: 1)
        let keyboard = newID()
        send(manager, 0, [seat, keyboard])  // create_virtual_keyboard
        let fd = try EndToEndTests.memfd(keymap)
        defer { Glibc.close(fd) }
        send(keyboard, 0, [UInt32(1), UInt32(keymap.utf8.count + 1)], passing: fd)  // keymap(xkb_v1, fd, size)
        return keyboard
    }

    /// zwp_virtual_keyboard_v1.key.
    func virtualKey(_ keyboard: UInt32, _ key: UInt32, pressed: Bool, time: UInt32 = 0) {
        send(keyboard, 1, [time, key, UInt32(pressed ? 1 : 0)])
    }

    /// A keymap as wtype uploads one: <K1> (evdev code 1) types `symbol`.
    static func wtypeKeymap(_ symbol: String) -> String {
        """
        xkb_keymap {
        xkb_keycodes "(unnamed)" { minimum = 8; maximum = 255; <K1> = 9; };
        xkb_types "(unnamed)" { include "complete" };
        xkb_compatibility "(unnamed)" { include "complete" };
        xkb_symbols "(unnamed)" { key <K1> {[ \(symbol) ]}; };
        };

        """
    }
}
