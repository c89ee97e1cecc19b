// A Swift compositor with its own wl_display and its own shell (COwnShell: wl_compositor,
// wl_subcompositor, wl_shm, wl_output and xdg-shell, with its own xdg-shell protocol code, as
// any real compositor has), using SeatKitWayland only for input: the seat, the data device
// and a ClientSurfaceResponder per window. Written as EmbeddingInASwiftCompositor.md says,
// with nothing of SeatKitHeadlessShell and no C module of SeatKit's.
//
//   own-shell-compositor [--socket NAME] [--scale N]
//
// Input comes as JSON lines on stdin (the kiosk's scripted input, for the tests): device-added,
// pointer-motion-absolute, button, axis, key, touch-down, touch-motion, touch-up, touch-frame.
// It logs what the tests wait for: "listening on NAME", "capabilities …", "mapped APP[pid] at
// x,y size WxH", "unmapped APP", "cursor wl_surface@N".
import COwnShell
import Foundation
import SeatKit
import SeatKitWayland
import SeatKitXKB

/// One line on stdout, written at once (the tests read it through a pipe).
func log(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("own-shell-compositor: \(message)\n".utf8))
    exit(1)
}

/// The shell's answers for the seat: cursor roles, regions and the wl_outputs a client bound.
/// It does not refer to the seat, so the seat may keep it (it does).
final class OwnShellRoles: WaylandSurfaceRoles {
    let shell: OpaquePointer
    init(shell: OpaquePointer) { self.shell = shell }

    func assignCursorRole(to surface: OpaquePointer) -> Bool { own_shell_assign_cursor_role(surface) }

    func rectangles(of region: OpaquePointer) -> [SurfaceRect]? {
        var buffer = [Int32](repeating: 0, count: 4 * 32)
        let count = own_region_rects(region, &buffer, 32)
        return count < 0 ? nil : rects(buffer, count)
    }

    func outputResources(for output: Output, client: OpaquePointer) -> [OpaquePointer] {
        var buffer = [OpaquePointer?](repeating: nil, count: 8)
        let count = own_shell_output_resources(shell, client, &buffer, 8)
        return buffer[0..<Int(count)].compactMap { $0 }
    }
}

func rects(_ buffer: [Int32], _ count: Int32) -> [SurfaceRect] {
    (0..<Int(count)).map { i in
        SurfaceRect(x: Double(buffer[4 * i]), y: Double(buffer[4 * i + 1]),
                    width: Double(buffer[4 * i + 2]), height: Double(buffer[4 * i + 3]))
    }
}

/// A surface's committed input region; nil when it is infinite (the whole surface).
func inputRegion(of surface: OpaquePointer) -> [SurfaceRect]? {
    var buffer = [Int32](repeating: 0, count: 4 * 32)
    let count = own_surface_input_region(surface, &buffer, 32)
    return count < 0 ? nil : rects(buffer, count)
}

final class OwnCompositor: CompositorDelegate {
    let display: WaylandDisplay
    let router: Router
    let output: Output
    let keyboard: Keyboard
    let seat: Seat
    let dataDevice: DataDevice
    private(set) var shell: OpaquePointer?
    /// The SeatKit surface of every mapped toplevel and popup, by its wl_surface.
    var windows: [OpaquePointer: Surface] = [:]

    init(wlDisplay: OpaquePointer, modeSize: Size, scale: Int32) throws {
        display = WaylandDisplay(wrapping: wlDisplay)
        router = Router(clock: display.clock)
        output = Output(name: "OWN-1", modeSize: modeSize, scale: Double(scale))
        router.addOutput(output)
        keyboard = Keyboard(keymap: try Keymap(names: KeymapNames(layout: "us")))
        keyboard.attach(to: router)
        seat = Seat(display: display, router: router, keymap: keyboard)
        // GTK4 makes no seat without a wl_data_device_manager, and wev crashes.
        dataDevice = DataDevice(seat: seat)
        keyboard.keymapDidChange = { [unowned seat] _ in seat.keymapDidChange() }
        router.delegate = self
        seat.cursorChanged = { cursor in
            log(cursor.map { "cursor \($0.surfaceDescription) hotspot \($0.hotspotX),\($0.hotspotY)" } ?? "cursor hidden")
        }

        var callbacks = own_shell_callbacks()
        callbacks.context = Unmanaged.passUnretained(self).toOpaque()
        callbacks.mapped = { context, surface, appID, width, height in
            OwnCompositor.from(context).mapToplevel(surface!, appID: appID.map { String(cString: $0) } ?? "", width: width, height: height)
        }
        callbacks.popup_mapped = { context, surface, parent, x, y, width, height in
            OwnCompositor.from(context).mapPopup(surface!, parent: parent!, x: x, y: y, width: width, height: height)
        }
        callbacks.committed = { context, surface, width, height in
            OwnCompositor.from(context).committed(surface!, width: width, height: height)
        }
        callbacks.unmapped = { context, surface, destroyed in
            OwnCompositor.from(context).unmap(surface!, destroyed: destroyed)
        }
        guard let shell = own_shell_create(wlDisplay, &callbacks, Int32(modeSize.width), Int32(modeSize.height), scale) else {
            fail("could not advertise the shell's globals")
        }
        self.shell = shell
        // Written naturally, with nothing else keeping it: the seat keeps its provider.
        seat.surfaceRoles = OwnShellRoles(shell: shell)
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> OwnCompositor {
        Unmanaged<OwnCompositor>.fromOpaque(context!).takeUnretainedValue()
    }

    func router(_ router: Router, capabilitiesChanged capabilities: DeviceCapabilities) {
        seat.capabilities = capabilities
        var names: [String] = []
        if capabilities.contains(.keyboard) { names.append("keyboard") }
        if capabilities.contains(.pointer) { names.append("pointer") }
        if capabilities.contains(.touch) { names.append("touch") }
        log("capabilities \(names.joined(separator: ","))")
    }

    /// A toplevel fills the output from its top-left corner, on top and focused.
    func mapToplevel(_ wlSurface: OpaquePointer, appID: String, width: Int32, height: Int32) {
        let responder = ClientSurfaceResponder(seat: seat, surfaceResource: wlSurface)
        let window = Surface(name: appID, frame: SurfaceRect(x: 0, y: 0, width: Double(width), height: Double(height)),
                             responder: responder)
        window.inputRegion = inputRegion(of: wlSurface)
        output.root.addChild(window)
        router.becomeFirstResponder(window)
        windows[wlSurface] = window
        log("mapped \(appID)[\(ClientID(owning: wlSurface).pid)] at 0,0 size \(width)x\(height)")
    }

    /// A popup is a child of its parent's surface, at the place the shell gave it.
    func mapPopup(_ wlSurface: OpaquePointer, parent: OpaquePointer, x: Int32, y: Int32, width: Int32, height: Int32) {
        guard let parentWindow = windows[parent] else { return }
        let popup = Surface(name: "popup", frame: SurfaceRect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)),
                            responder: ClientSurfaceResponder(seat: seat, surfaceResource: wlSurface))
        popup.inputRegion = inputRegion(of: wlSurface)
        parentWindow.addChild(popup)
        windows[wlSurface] = popup
        log("popup of \(parentWindow.name) at \(x),\(y) size \(width)x\(height)")
    }

    func committed(_ wlSurface: OpaquePointer, width: Int32, height: Int32) {
        guard let window = windows[wlSurface] else { return }
        var frame = window.frame
        frame.size = Size(width: Double(width), height: Double(height))
        if frame != window.frame { window.frame = frame }
        window.inputRegion = inputRegion(of: wlSurface)
    }

    func unmap(_ wlSurface: OpaquePointer, destroyed: Bool) {
        guard let window = windows.removeValue(forKey: wlSurface) else { return }
        if destroyed { (window.responder as? ClientSurfaceResponder)?.surfaceDestroyed() }
        window.removeFromParent()
        log("unmapped \(window.name)")
    }
}

// MARK: Input: JSON lines on stdin

func parse(_ line: Data, clock: any SeatKit.Clock) -> InputEvent? {
    guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any], let type = object["type"] as? String else {
        return nil
    }
    func number(_ key: String) -> Double { object[key] as? Double ?? 0 }
    let pressed = (object["state"] as? String) != "released"
    let device = DeviceID(UInt32(number("device")))
    let point = LayoutPoint(x: number("x"), y: number("y"))
    let kind: InputEvent.Kind
    switch type {
    case "device-added":
        var capabilities: DeviceCapabilities = []
        for name in object["capabilities"] as? [String] ?? [] {
            if name == "keyboard" { capabilities.insert(.keyboard) }
            if name == "pointer" { capabilities.insert(.pointer) }
            if name == "touch" { capabilities.insert(.touch) }
        }
        kind = .deviceAdded(DeviceInfo(name: object["name"] as? String ?? "scripted", capabilities: capabilities))
    case "pointer-motion-absolute": kind = .pointerMotionAbsolute(point)
    case "button": kind = .pointerButton(button: UInt32(number("button")), state: pressed ? .pressed : .released)
    case "axis":
        kind = .pointerAxis(AxisMotion(source: .wheel, horizontal: 0, vertical: number("vertical"), horizontalV120: 0,
                                       verticalV120: number("vertical120"), horizontalStop: false, verticalStop: false))
    case "key": kind = .key(keycode: UInt32(number("key")), state: pressed ? .pressed : .released)
    case "touch-down": kind = .touchDown(TouchID(Int32(number("id"))), point)
    case "touch-motion": kind = .touchMotion(TouchID(Int32(number("id"))), point)
    case "touch-up": kind = .touchUp(TouchID(Int32(number("id"))))
    case "touch-frame": kind = .touchFrame
    default: return nil
    }
    return InputEvent(time: clock.now, device: device, kind)
}

// MARK: main

var socketName = "wayland-own"
var scale: Int32 = 1
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--socket":
        guard let name = arguments.popFirst() else { fail("--socket takes a name") }
        socketName = name
    case "--scale":
        guard let value = arguments.popFirst().flatMap({ Int32($0) }), (1...4).contains(value) else { fail("--scale takes 1 to 4") }
        scale = value
    case "--script": _ = arguments.popFirst()  // the script is always stdin
    default: fail("unknown argument \(argument)")
    }
}

guard let raw = wl_display_create() else { fail("no wl_display") }
guard wl_display_add_socket(raw, socketName) == 0 else { fail("cannot listen on \(socketName)") }
let compositor = try OwnCompositor(wlDisplay: raw, modeSize: Size(width: 1280, height: 800), scale: scale)
log("listening on \(socketName) beside the compositor's own \(String(cString: own_xdg_wm_base_name()))")

var pending = Data()
compositor.display.watch(fileDescriptor: 0) {
    var chunk = [UInt8](repeating: 0, count: 4096)
    let n = read(0, &chunk, chunk.count)
    guard n > 0 else {
        compositor.display.stopWatching(fileDescriptor: 0)
        return
    }
    pending.append(contentsOf: chunk[0..<n])
    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let line = pending[pending.startIndex..<newline]
        pending.removeSubrange(pending.startIndex...newline)
        if let event = parse(Data(line), clock: compositor.router.clock) {
            compositor.seat.router.inject(event)
        } else if !line.isEmpty {
            log("script: bad line \(String(decoding: line, as: UTF8.self))")
        }
    }
}
wl_display_run(raw)
