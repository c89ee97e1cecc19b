// kiosk: a headless Wayland compositor built on SeatKit, in about a hundred lines.
//
// Real clients (wev, weston-simple-touch, any xdg-shell app) connect to it and get input
// from a script of events (see ScriptedInputSource.swift), routed by SeatKit's router to
// the window under the finger or pointer, or to the focused window for keys.
//
//   kiosk [--socket NAME] [--layout XKB-LAYOUT] [--script FILE|-] [--size WxH]
//
// Nothing is drawn: buffers are released as soon as they arrive. Everything runs on one
// thread, the Wayland event loop's.
import Foundation
import SeatKit
import SeatKitWayland
import SeatKitXKB

/// Log lines on stdout are the kiosk's interface to scripts and tests ("mapped ...").
func log(_ line: String) {
    print(line)
    fflush(nil)
}

// 1. Options.
var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    guard flag.hasPrefix("--"), let value = arguments.popFirst() else {
        log("usage: kiosk [--socket NAME] [--layout XKB-LAYOUT] [--script FILE|-] [--size WxH]")
        exit(2)
    }
    options[String(flag.dropFirst(2))] = value
}

do {
    // 2. The Wayland display: a socket in $XDG_RUNTIME_DIR and the event loop.
    let display = try WaylandDisplay(socketName: options["socket"])

    // 3. SeatKit's router, on the event loop's clock, with one output as the root of the tree.
    let router = Router(clock: display.clock)
    let size = (options["size"] ?? "1920x1080").split(separator: "x").compactMap { Double($0) }
    let output = Output(name: "HEADLESS-1", modeSize: Size(width: size.first ?? 1920, height: size.last ?? 1080))
    router.addOutput(output)

    // 4. The keyboard: xkbcommon turns keycodes into keysyms, text and modifiers for the
    //    router, and the same object gives clients their keymap (a sealed memfd) and repeat
    //    info, so the modifiers clients get always match the keymap they were sent.
    let keyboard = Keyboard(keymap: try Keymap(names: KeymapNames(layout: options["layout"] ?? "us")))
    keyboard.attach(to: router)

    // 5. The seat clients bind.
    let seat = Seat(display: display, router: router, keymap: keyboard)
    keyboard.keymapDidChange = { _ in seat.keymapDidChange() }
    // A real compositor would draw this surface at the pointer; the kiosk only reports it.
    seat.cursorChanged = { cursor in
        log(cursor.map { "cursor \($0.surfaceDescription) hotspot \($0.hotspotX),\($0.hotspotY)" } ?? "cursor hidden")
    }

    // 6. The globals clients need to show a window: wl_compositor, wl_shm, xdg_wm_base...
    let shell = HeadlessShell(display: display, seat: seat)
    shell.advertise(output)

    // 7. The policy: where windows go and who gets keyboard focus.
    let kiosk = Kiosk(router: router, seat: seat, shell: shell, output: output)
    router.delegate = kiosk
    router.addFilter(kiosk)
    shell.delegate = kiosk

    // 8. Input: a script of events, delivered through the seat (which closes touch frames).
    var source: ScriptedInputSource?
    if let script = options["script"] {
        let fd = script == "-" ? STDIN_FILENO : open(script, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CocoaError(.fileReadNoSuchFile) }
        source = ScriptedInputSource(fileDescriptor: fd, clock: display.clock)
        source?.finished = { log("script ended") }
        source?.start(on: display) { event in seat.inject(event) }
    }

    // 9. Run until killed.
    log("listening on \(display.socketName)")
    display.run()
    withExtendedLifetime((kiosk, source)) {}
} catch {
    log("kiosk: \(error)")
    exit(1)
}
